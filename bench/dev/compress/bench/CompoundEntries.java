package dev.compress.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * The files inside a compound segment, read from its entries file ({@code .cfe}, Lucene 9.0's
 * compound format, which the Lucene 10 codecs of both plugins write) without opening the segment:
 * that would need the codec that wrote it, and k-NN's codec is not on the benchmark's classpath.
 */
final class CompoundEntries {

    private static final String CODEC = "Lucene90CompoundEntries";

    private CompoundEntries() {}

    /** Each entry's name (such as {@code _Lucene99HnswVectorsFormat_0.vec}) and length in bytes. */
    static Map<String, Long> lengths(Path cfe) throws IOException {
        Map<String, Long> lengths = new LinkedHashMap<>();
        try (Directory dir = FSDirectory.open(cfe.getParent());
                ChecksumIndexInput in = dir.openChecksumInput(cfe.getFileName().toString())) {
            CodecUtil.checkHeader(in, CODEC, 0, Integer.MAX_VALUE);
            in.skipBytes(16); // the segment's id
            in.skipBytes(in.readByte() & 0xFF); // the header's suffix
            int entries = in.readVInt();
            for (int i = 0; i < entries; i++) {
                String name = in.readString();
                in.readLong(); // offset in the .cfs
                lengths.put(name, in.readLong());
            }
            CodecUtil.checkFooter(in);
        }
        return lengths;
    }
}
