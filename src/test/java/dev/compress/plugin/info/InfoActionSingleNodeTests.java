package dev.compress.plugin.info;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.PluginVersion;
import java.util.Collection;
import java.util.List;
import org.apache.lucene.util.Version;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchSingleNodeTestCase;

/** The info action on one in-JVM node: versions and a loaded CPU training engine. */
public class InfoActionSingleNodeTests extends OpenSearchSingleNodeTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> getPlugins() {
        return List.of(CompressPlugin.class);
    }

    public void testReportsVersionsAndLoadedEngine() {
        InfoResponse response =
                client().execute(InfoAction.INSTANCE, new InfoRequest()).actionGet();
        assertEquals(Version.LATEST.toString(), response.luceneVersion());
        assertEquals(PluginVersion.get(), response.pluginVersion());
        assertTrue(
                "engine should load offline: " + response.engine().error(),
                response.engine().loaded());
        assertEquals("PyTorch", response.engine().engine());
        assertTrue(response.engine().devices().contains("cpu()"));
    }
}
