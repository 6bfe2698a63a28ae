package dev.compress.plugin.mapper;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.query.CompressedKnnQueryBuilder;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.opensearch.ExceptionsHelper;
import org.opensearch.action.DocWriteResponse;
import org.opensearch.action.get.GetResponse;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.index.mapper.MapperParsingException;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchSingleNodeTestCase;

/** Mapping parameters and document values of {@code compressed_vector}: every bad input is a clear error. */
public class CompressedVectorMappingTests extends OpenSearchSingleNodeTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> getPlugins() {
        return List.of(CompressPlugin.class);
    }

    private static final Settings OURS =
            Settings.builder().put("index.compress", true).build();

    private void createIndexWithMapping(String mapping) {
        client().admin()
                .indices()
                .prepareCreate("idx")
                .setSettings(OURS)
                .setMapping(mapping)
                .get();
    }

    private String mappingError(String fieldMapping) {
        Exception e = expectThrows(
                Exception.class,
                () -> client().admin()
                        .indices()
                        .prepareCreate("bad")
                        .setSettings(OURS)
                        .setMapping("{\"properties\":{\"v\":" + fieldMapping + "}}")
                        .get());
        return rootMessage(e);
    }

    public void testFieldNeedsTheIndexSetting() {
        String mapping = "{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":8}}}";
        MapperParsingException e = expectThrows(
                MapperParsingException.class,
                () -> client().admin()
                        .indices()
                        .prepareCreate("plain")
                        .setMapping(mapping)
                        .get());
        assertEquals(400, e.status().getStatus());
        assertTrue(
                rootMessage(e),
                rootMessage(e)
                        .contains(
                                "field [v] of type [compressed_vector] needs the index setting [index.compress: true]"));
        assertFalse(client().admin().indices().prepareExists("plain").get().isExists());

        client().admin()
                .indices()
                .prepareCreate("later")
                .setMapping("{\"properties\":{\"t\":{\"type\":\"keyword\"}}}")
                .get();
        Exception update = expectThrows(
                MapperParsingException.class,
                () -> client().admin()
                        .indices()
                        .preparePutMapping("later")
                        .setSource(mapping, XContentType.JSON)
                        .get());
        assertTrue(rootMessage(update), rootMessage(update).contains("needs the index setting [index.compress: true]"));

        IllegalArgumentException reopen = expectThrows(
                IllegalArgumentException.class,
                () -> client().admin()
                        .indices()
                        .prepareUpdateSettings("later")
                        .setSettings(OURS)
                        .get());
        assertTrue(reopen.getMessage(), reopen.getMessage().contains("index.compress"));
    }

    private static String rootMessage(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }

    public void testMappingErrorsNameTheParameter() {
        assertTrue(
                mappingError("{\"type\":\"compressed_vector\"}"),
                mappingError("{\"type\":\"compressed_vector\"}").contains("needs [dimension]"));
        String zero = mappingError("{\"type\":\"compressed_vector\",\"dimension\":0}");
        assertTrue(zero, zero.contains("[dimension] must be in [1, 16000], got [0]"));
        String enc = mappingError("{\"type\":\"compressed_vector\",\"dimension\":4,\"encoding\":\"int4\"}");
        assertTrue(enc, enc.contains("encoding") && enc.contains("int4"));
        String sim = mappingError("{\"type\":\"compressed_vector\",\"dimension\":4,\"similarity\":\"hamming\"}");
        assertTrue(sim, sim.contains("similarity") && sim.contains("hamming"));
        String m = mappingError("{\"type\":\"compressed_vector\",\"dimension\":4,\"hnsw\":{\"m\":1}}");
        assertTrue(m, m.contains("[hnsw.m] must be in [2, 512], got [1]"));
        String fractional = mappingError("{\"type\":\"compressed_vector\",\"dimension\":4,\"hnsw\":{\"m\":16.5}}");
        assertTrue(fractional, fractional.contains("[hnsw.m] must be an integer, got [16.5]"));
        String huge = mappingError(
                "{\"type\":\"compressed_vector\",\"dimension\":4,\"hnsw\":{\"ef_construction\":4294967296}}");
        assertTrue(huge, huge.contains("[hnsw.ef_construction] must be an integer, got [4294967296]"));
        String beam = mappingError("{\"type\":\"compressed_vector\",\"dimension\":4,\"hnsw\":{\"ef_construction\":1}}");
        assertTrue(beam, beam.contains("[hnsw.ef_construction] must be in [2, 3200], got [1]"));
        String unknown = mappingError("{\"type\":\"compressed_vector\",\"dimension\":4,\"hnsw\":{\"beam\":1}}");
        assertTrue(unknown, unknown.contains("unknown parameter [beam]"));
        String rescoreOnFloat = mappingError(
                "{\"type\":\"compressed_vector\",\"dimension\":4,\"encoding\":\"float\",\"rescore_vectors\":false}");
        assertTrue(rescoreOnFloat, rescoreOnFloat.contains("[rescore_vectors] applies to [encoding: binary] only"));
        String notBoolean = mappingError(
                "{\"type\":\"compressed_vector\",\"dimension\":4,\"encoding\":\"binary\",\"rescore_vectors\":\"no\"}");
        assertTrue(notBoolean, notBoolean.contains("[rescore_vectors] must be true or false, got [no]"));
        // OpenSearch would drop these with a deprecation warning, and index: false would leave the field searchable
        for (String dropped : new String[] {"\"index\":false", "\"doc_values\":true", "\"store\":true"}) {
            String error = mappingError("{\"type\":\"compressed_vector\",\"dimension\":4," + dropped + "}");
            assertTrue(
                    error,
                    error.contains("field [v] of type [compressed_vector] does not take ["
                            + dropped.substring(1, dropped.indexOf('"', 1)) + "]"));
        }
        String multiField = mappingError(
                "{\"type\":\"compressed_vector\",\"dimension\":4,\"fields\":{\"k\":{\"type\":\"keyword\"}}}");
        assertTrue(
                multiField,
                multiField.contains(
                        "field [v] of type [compressed_vector] does not take [fields]: a vector has no multi-fields"));
    }

    /**
     * {@code l2} and {@code inner_product} on float fields and on binary fields that keep floats for
     * rescoring; a codes-only binary field is refused with a 400 naming field, similarity and encoding.
     */
    @SuppressWarnings("unchecked")
    public void testMagnitudeSimilaritiesNeedFloatVectors() {
        createIndexWithMapping(
                "{\"properties\":{"
                        + "\"l2\":{\"type\":\"compressed_vector\",\"dimension\":4,\"similarity\":\"l2\"},"
                        + "\"ip\":{\"type\":\"compressed_vector\",\"dimension\":4,\"similarity\":\"inner_product\"},"
                        + "\"l2b\":{\"type\":\"compressed_vector\",\"dimension\":4,\"encoding\":\"binary\",\"similarity\":\"l2\"}}}");
        Map<String, Object> properties = (Map<String, Object>) client().admin()
                .indices()
                .prepareGetMappings("idx")
                .get()
                .mappings()
                .get("idx")
                .sourceAsMap()
                .get("properties");
        assertEquals("l2", ((Map<String, Object>) properties.get("l2")).get("similarity"));
        assertEquals("inner_product", ((Map<String, Object>) properties.get("ip")).get("similarity"));
        assertEquals("l2", ((Map<String, Object>) properties.get("l2b")).get("similarity"));
        // any length is fine for both: only dot_product needs unit vectors
        assertEquals(
                DocWriteResponse.Result.CREATED,
                client().prepareIndex("idx")
                        .setId("long")
                        .setSource("{\"l2\":[3,0,4,0],\"ip\":[0,0,0,0],\"l2b\":[-7,1,0,2]}", XContentType.JSON)
                        .get()
                        .getResult());
        for (String sim : List.of("l2", "inner_product")) {
            Exception e = expectThrows(
                    Exception.class,
                    () -> client().admin()
                            .indices()
                            .prepareCreate("codes")
                            .setSettings(OURS)
                            .setMapping("{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":4,"
                                    + "\"encoding\":\"binary\",\"rescore_vectors\":false,\"similarity\":\"" + sim
                                    + "\"}}}")
                            .get());
            assertEquals(RestStatus.BAD_REQUEST, ExceptionsHelper.status(e));
            assertTrue(
                    rootMessage(e),
                    rootMessage(e)
                            .contains("field [v]: similarity [" + sim + "] with [encoding: binary] needs"
                                    + " [rescore_vectors: true]"));
        }
    }

    public void testMappingRoundTripsWithDefaults() {
        createIndexWithMapping(
                "{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":4096,\"encoding\":\"binary\"}}}");
        Map<String, Object> mapping = client().admin()
                .indices()
                .prepareGetMappings("idx")
                .get()
                .mappings()
                .get("idx")
                .sourceAsMap();
        @SuppressWarnings("unchecked")
        Map<String, Object> v = (Map<String, Object>) ((Map<String, Object>) mapping.get("properties")).get("v");
        assertEquals("compressed_vector", v.get("type"));
        assertEquals(4096, v.get("dimension"));
        assertEquals("binary", v.get("encoding"));
    }

    /** {@code hnsw} keeps its JSON form through the mapping, and a change of it is refused naming both values in that form. */
    @SuppressWarnings("unchecked")
    public void testHnswRoundTripsAndCannotBeChanged() {
        createIndexWithMapping(
                "{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":4,\"hnsw\":{\"m\":8}}}}");
        Map<String, Object> mapping = client().admin()
                .indices()
                .prepareGetMappings("idx")
                .get()
                .mappings()
                .get("idx")
                .sourceAsMap();
        Map<String, Object> v = (Map<String, Object>) ((Map<String, Object>) mapping.get("properties")).get("v");
        assertEquals(Map.of("m", 8, "ef_construction", 100), v.get("hnsw"));
        Exception e = expectThrows(
                Exception.class,
                () -> client().admin()
                        .indices()
                        .preparePutMapping("idx")
                        .setSource(
                                "{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":4,\"hnsw\":{\"m\":32}}}}",
                                XContentType.JSON)
                        .get());
        assertTrue(
                rootMessage(e),
                rootMessage(e)
                        .contains(
                                "Cannot update parameter [hnsw] from [{\"m\":8,\"ef_construction\":100}] to [{\"m\":32,\"ef_construction\":100}]"));
    }

    private String documentError(String source) {
        Exception e = expectThrows(
                MapperParsingException.class,
                () -> client().prepareIndex("idx")
                        .setId("bad")
                        .setSource(source, XContentType.JSON)
                        .get());
        return rootMessage(e);
    }

    public void testBadDocumentsAreRejectedWithTheFieldAndProblem() {
        createIndexWithMapping(
                "{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":3,\"similarity\":\"dot_product\"},\"t\":{\"type\":\"keyword\"}}}");
        assertTrue(
                documentError("{\"v\":[1,0]}"),
                documentError("{\"v\":[1,0]}").contains("field [v] expects 3 dimensions, got 2"));
        assertTrue(documentError("{\"v\":[1,0,0,0]}").contains("expects 3 dimensions, got 4"));
        // the message a response leads with gives the reason, not OpenSearch's preview of the value ('null' in an
        // array)
        MapperParsingException top = expectThrows(
                MapperParsingException.class,
                () -> client().prepareIndex("idx")
                        .setId("bad")
                        .setSource("{\"v\":[1,0]}", XContentType.JSON)
                        .get());
        assertEquals(
                "failed to parse field [v] of type [compressed_vector] in document with id 'bad': "
                        + "field [v] expects 3 dimensions, got 2",
                top.getMessage());
        String str = documentError("{\"v\":[1,\"a\",0]}");
        assertTrue(str, str.contains("field [v] expects only numbers, got [string \"a\"] at position 1"));
        String nested = documentError("{\"v\":[[1,0,0]]}");
        assertTrue(nested, nested.contains("got [nested array] at position 0"));
        String beyondFloat = documentError("{\"v\":[0,1e39,0]}");
        assertTrue(
                beyondFloat,
                beyondFloat.contains("field [v] has the value [1e39] at position 1, outside float's range"));
        String infinite = documentError("{\"v\":[1e400,0,0]}");
        assertTrue(infinite, infinite.contains("non-finite value [Infinity] at position 0"));
        String huge = documentError("{\"v\":[1e19,1e19,0]}");
        assertTrue(huge, huge.contains("field [v]'s vector has length 1.4142135E19, above 9.2233715E18"));
        String scalar = documentError("{\"v\":1}");
        assertTrue(scalar, scalar.contains("field [v] expects an array of 3 numbers"));
        String notUnit = documentError("{\"v\":[2,0,0]}");
        assertTrue(notUnit, notUnit.contains("needs unit-length vectors; this one has length 2.0"));
        // nothing of a rejected document is indexed
        assertFalse(client().prepareGet("idx", "bad").get().isExists());
    }

    /**
     * Cosine needs a vector whose squares, summed in float as Lucene sums them, neither vanish nor lose their bits:
     * a shorter one scored Infinity against every query.
     */
    public void testCosineRefusesVectorsTooShortToScore() {
        createIndexWithMapping("{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":3},"
                + "\"b\":{\"type\":\"compressed_vector\",\"dimension\":3,\"encoding\":\"binary\"}}}");
        String zero = documentError("{\"v\":[0,0,0]}");
        assertTrue(
                zero,
                zero.contains("field [v] uses similarity [cosine], and its vector is the zero vector, for which cosine"
                        + " is undefined"));
        for (String field : new String[] {"v", "b"}) {
            String tiny = documentError("{\"" + field + "\":[1e-23,1e-23,1e-23]}");
            assertTrue(
                    tiny,
                    tiny.contains("field [" + field + "] uses similarity [cosine], and its vector has length 1.73"));
            assertTrue(tiny, tiny.contains("below 1.0842022E-19: cosine similarity of a vector that short underflows"));
        }
        assertFalse(client().prepareGet("idx", "bad").get().isExists());
        // short, but its squares still sum to a normal float
        client().prepareIndex("idx")
                .setId("short")
                .setSource("{\"v\":[1e-18,0,0],\"b\":[1e-18,1e-18,0]}", XContentType.JSON)
                .get();
        assertTrue(client().prepareGet("idx", "short").get().isExists());
    }

    /** With vectors kept in {@code _source}, it is what the user sent, byte for byte. */
    public void testSourceKeepsWhatTheUserSent() {
        client().admin()
                .indices()
                .prepareCreate("idx")
                .setSettings(Settings.builder().put(OURS).put("index.compress.derived_source", false))
                .setMapping("{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":3}}}")
                .get();
        DocWriteResponse r = client().prepareIndex("idx")
                .setId("1")
                .setSource("{\"v\":[0.5,-2,3.25]}", XContentType.JSON)
                .get();
        assertEquals(DocWriteResponse.Result.CREATED, r.getResult());
        GetResponse got = client().prepareGet("idx", "1").get();
        assertEquals("{\"v\":[0.5,-2,3.25]}", got.getSourceAsString());
    }

    /** Derived from the codec, the vector reads back as the float32 values the index holds. */
    public void testDerivedSourceReadsBackTheIndexedFloats() {
        client().admin()
                .indices()
                .prepareCreate("idx")
                .setSettings(Settings.builder().put(OURS).put("index.codec", "default"))
                .setMapping("{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":3}}}")
                .get();
        client().prepareIndex("idx")
                .setId("1")
                .setSource("{\"v\":[0.5,-2,0.123456789]}", XContentType.JSON)
                .setRefreshPolicy(org.opensearch.action.support.WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        GetResponse got = client().prepareGet("idx", "1").setRealtime(false).get();
        assertEquals("{\"v\":[0.5,-2.0,0.12345679]}", got.getSourceAsString());
    }

    public void testNullIsAnAbsentValue() {
        createIndexWithMapping("{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":3}}}");
        DocWriteResponse none = client().prepareIndex("idx")
                .setId("none")
                .setSource("{\"v\":null}", XContentType.JSON)
                .get();
        assertEquals(DocWriteResponse.Result.CREATED, none.getResult());
        client().prepareIndex("idx")
                .setId("one")
                .setSource("{\"v\":[0,1,0]}", XContentType.JSON)
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        SearchResponse found = client().prepareSearch("idx")
                .setQuery(CompressedKnnQueryBuilder.builder()
                        .field("v")
                        .vector(new float[] {0, 1, 0})
                        .k(10)
                        .build())
                .get();
        assertEquals(1, found.getHits().getHits().length);
        assertEquals("one", found.getHits().getAt(0).getId());
        assertEquals("{\"v\":null}", client().prepareGet("idx", "none").get().getSourceAsString());
    }

    /** copy_to copies the whole vector: into a compressed_vector of the same dimension it is searchable there. */
    public void testCopyToAnotherVectorFieldOfTheSameDimension() {
        createIndexWithMapping("{\"properties\":{"
                + "\"v\":{\"type\":\"compressed_vector\",\"dimension\":3,\"copy_to\":[\"bits\"]},"
                + "\"bits\":{\"type\":\"compressed_vector\",\"dimension\":3,\"encoding\":\"binary\"}}}");
        client().prepareIndex("idx")
                .setId("1")
                .setSource("{\"v\":[0.2,0.9,0.1]}", XContentType.JSON)
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        SearchResponse found = client().prepareSearch("idx")
                .setQuery(CompressedKnnQueryBuilder.builder()
                        .field("bits")
                        .vector(new float[] {0, 1, 0})
                        .k(10)
                        .build())
                .get();
        assertEquals(1, found.getHits().getHits().length);
        assertEquals("1", found.getHits().getHits()[0].getId());
    }
}
