package dev.compress.plugin.warmup;

import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.lucene.codecs.CompoundDirectory;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.opensearch.common.lucene.Lucene;

/**
 * Reads the vector files that searches read at random into the page cache, front to back: the codes
 * ({@code .vbc}) and HNSW graphs ({@code .vex}) of every {@code compressed_vector} field, and the
 * float vectors ({@code .vec}) of {@code float} fields, whose graph search scores with them. A
 * {@code binary} field's float vectors stay cold: rescoring reads only its candidates' rows. Files
 * packed into a compound file are read from inside it.
 */
final class SegmentFileWarmer {

    /** Lucene's HNSW graph file ({@code Lucene99HnswVectorsFormat}, which both our formats wrap). */
    static final String GRAPH_EXTENSION = "vex";
    /** Lucene's float vector file ({@code Lucene99FlatVectorsFormat}). */
    static final String FLOAT_VECTORS_EXTENSION = "vec";

    private static final Set<String> ALWAYS = Set.of(BinaryFlatVectorsFormat.DATA_EXTENSION, GRAPH_EXTENSION);
    private static final int BUFFER_BYTES = 1 << 16;

    private SegmentFileWarmer() {}

    /** Whether warmup reads {@code fileName}; per-field formats put their SPI name into the file names they write. */
    static boolean warms(String fileName) {
        String extension = IndexFileNames.getExtension(fileName);
        if (ALWAYS.contains(extension)) {
            return true;
        }
        return FLOAT_VECTORS_EXTENSION.equals(extension) && fileName.contains("_" + FloatHnswVectorsFormat.NAME + "_");
    }

    static WarmedShard warm(DirectoryReader reader) throws IOException {
        WarmedShard total = new WarmedShard(0, 0, 0);
        byte[] buffer = new byte[BUFFER_BYTES];
        for (LeafReaderContext leaf : reader.leaves()) {
            SegmentInfo info = Lucene.segmentReader(leaf.reader()).getSegmentInfo().info;
            if (info.getUseCompoundFile()) {
                try (CompoundDirectory compound =
                        info.getCodec().compoundFormat().getCompoundReader(info.dir, info)) {
                    total = total.plus(read(compound, List.of(compound.listAll()), buffer));
                }
            } else {
                total = total.plus(read(info.dir, info.files(), buffer));
            }
        }
        return total;
    }

    private static WarmedShard read(Directory directory, Collection<String> files, byte[] buffer) throws IOException {
        int count = 0;
        long bytes = 0;
        for (String file : files) {
            if (warms(file) == false) {
                continue;
            }
            try (IndexInput input = directory.openInput(file, IOContext.READONCE)) {
                for (long left = input.length(); left > 0; ) {
                    int n = (int) Math.min(buffer.length, left);
                    input.readBytes(buffer, 0, n);
                    left -= n;
                }
                count++;
                bytes += input.length();
            }
        }
        return new WarmedShard(count, bytes, 0);
    }
}
