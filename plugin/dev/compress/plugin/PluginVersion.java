package dev.compress.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The plugin's version, written into {@code plugin-version.properties} by the build. */
public final class PluginVersion {

    private static final String VERSION = load();

    private PluginVersion() {}

    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = PluginVersion.class.getResourceAsStream("plugin-version.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
