package dev.compress.plugin.codec;

import dev.compress.plugin.CompressPlugin;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.opensearch.action.DocWriteRequest;
import org.opensearch.action.admin.indices.template.put.PutComposableIndexTemplateAction;
import org.opensearch.cluster.metadata.ComposableIndexTemplate;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.Template;
import org.opensearch.common.compress.CompressedXContent;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.codec.CodecService;
import org.opensearch.index.codec.CodecServiceFactory;
import org.opensearch.plugins.EnginePlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchSingleNodeTestCase;

/**
 * The plugin claims an index's codec service only when the index opts in with {@code index.compress}:
 * next to another plugin that claims its own indexes the same way (as k-NN and neural-search do), both
 * kinds of index are created, and only an index claimed by both is refused.
 */
public class CodecServiceClaimTests extends OpenSearchSingleNodeTestCase {

    /** Stands for k-NN or neural-search: a codec service for indexes carrying its own setting. */
    public static class NeighbourPlugin extends Plugin implements EnginePlugin {
        static final Setting<Boolean> NEIGHBOUR =
                Setting.boolSetting("index.neighbour", false, Setting.Property.IndexScope);

        @Override
        public List<Setting<?>> getSettings() {
            return List.of(NEIGHBOUR);
        }

        @Override
        public Optional<CodecServiceFactory> getCustomCodecServiceFactory(IndexSettings indexSettings) {
            return NEIGHBOUR.get(indexSettings.getSettings())
                    ? Optional.of(config ->
                            new CodecService(config.getMapperService(), config.getIndexSettings(), config.getLogger()))
                    : Optional.empty();
        }
    }

    @Override
    protected Collection<Class<? extends Plugin>> getPlugins() {
        return List.of(CompressPlugin.class, NeighbourPlugin.class);
    }

    public void testEachPluginKeepsToItsOwnIndexes() {
        createIndex("plain", Settings.EMPTY);
        createIndex("theirs", Settings.builder().put("index.neighbour", true).build());
        createIndex(
                "ours",
                Settings.builder().put("index.compress", true).build(),
                "_doc",
                "v",
                "type=compressed_vector,dimension=8");
        client().prepareIndex("ours")
                .setId("1")
                .setSource("{\"v\":[1,2,3,4,5,6,7,8]}", org.opensearch.common.xcontent.XContentType.JSON)
                .get();
        client().prepareIndex("theirs")
                .setId("1")
                .setSource("{\"t\":\"x\"}", org.opensearch.common.xcontent.XContentType.JSON)
                .get();
        client().admin().indices().prepareRefresh("ours", "theirs").get();
        assertEquals(
                1, client().prepareSearch("ours").get().getHits().getTotalHits().value());
        assertEquals(
                1,
                client().prepareSearch("theirs").get().getHits().getTotalHits().value());

        IllegalStateException both = expectThrows(
                IllegalStateException.class,
                () -> createIndex(
                        "both",
                        Settings.builder()
                                .put("index.neighbour", true)
                                .put("index.compress", true)
                                .build()));
        assertTrue(both.getMessage(), both.getMessage().contains("codec service factory already overridden"));
    }

    public void testHiddenIndexesAreNeverOurs() {
        createIndex(
                "hidden-ours",
                Settings.builder()
                        .put("index.compress", true)
                        .put("index.hidden", true)
                        .put("index.neighbour", true)
                        .build());
        assertTrue(client().admin().indices().prepareExists("hidden-ours").get().isExists());
        Exception field = expectThrows(
                org.opensearch.index.mapper.MapperParsingException.class,
                () -> client().admin()
                        .indices()
                        .preparePutMapping("hidden-ours")
                        .setSource(
                                "{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":8}}}",
                                org.opensearch.common.xcontent.XContentType.JSON)
                        .get());
        assertTrue(field.getMessage(), field.getMessage().contains("cannot be in a hidden index"));
    }

    /** One of ours cannot be hidden afterwards: its mapping would no longer parse when a shard opens. */
    /** A data stream's backing indexes are hidden: its first document is refused with a message that says so. */
    public void testADataStreamIsRefusedSayingWhy() throws Exception {
        ComposableIndexTemplate template = new ComposableIndexTemplate(
                List.of("vectors-stream*"),
                new Template(
                        Settings.builder().put("index.compress", true).build(),
                        new CompressedXContent("{\"properties\":{\"@timestamp\":{\"type\":\"date\"},"
                                + "\"v\":{\"type\":\"compressed_vector\",\"dimension\":3}}}"),
                        null),
                null,
                null,
                null,
                null,
                new ComposableIndexTemplate.DataStreamTemplate());
        client().execute(
                        PutComposableIndexTemplateAction.INSTANCE,
                        new PutComposableIndexTemplateAction.Request("vectors").indexTemplate(template))
                .actionGet();
        Exception refused = expectThrows(
                Exception.class,
                () -> client().prepareIndex("vectors-stream")
                        .setOpType(DocWriteRequest.OpType.CREATE)
                        .setSource("{\"@timestamp\":\"2026-01-01T00:00:00Z\",\"v\":[1,2,3]}", XContentType.JSON)
                        .get());
        assertTrue(
                refused.getMessage(),
                refused.getMessage()
                        .contains("cannot be in a hidden index, and the backing indexes of a data stream"
                                + " are hidden: write to an alias with rollover instead"));
    }

    public void testOursCannotBeHiddenLater() {
        createIndex(
                "shown-ours",
                Settings.builder().put("index.compress", true).build(),
                "_doc",
                "v",
                "type=compressed_vector,dimension=8");
        IllegalArgumentException hide = expectThrows(
                IllegalArgumentException.class,
                () -> client().admin()
                        .indices()
                        .prepareUpdateSettings("shown-*")
                        .setSettings(Settings.builder().put("index.hidden", true))
                        .get());
        assertEquals(
                "[index.hidden] cannot be set on index [shown-ours]: it was created with [index.compress: true], "
                        + "and hidden indexes have no compressed_vector fields",
                hide.getMessage());
        createIndex("shown-plain", Settings.EMPTY);
        client().admin()
                .indices()
                .prepareUpdateSettings("shown-plain")
                .setSettings(Settings.builder().put("index.hidden", true))
                .get();
        assertFalse(IndexMetadata.INDEX_HIDDEN_SETTING.get(client().admin()
                .indices()
                .prepareGetSettings("shown-ours")
                .get()
                .getIndexToSettings()
                .get("shown-ours")));
    }
}
