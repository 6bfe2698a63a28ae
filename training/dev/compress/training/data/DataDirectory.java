package dev.compress.training.data;

import java.nio.file.Path;

/**
 * Where the BEIR data and precomputed embeddings live: {@code COMPRESS_DATA_DIR} from the
 * environment, else the system property {@code compress.data.dir}, else {@code ../shared/data}
 * relative to the working directory.
 */
public final class DataDirectory {

    public static final String ENV_VAR = "COMPRESS_DATA_DIR";
    public static final String SYSTEM_PROPERTY = "compress.data.dir";

    private DataDirectory() {}

    public static Path resolve() {
        String env = System.getenv(ENV_VAR);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        String prop = System.getProperty(SYSTEM_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        return Path.of("..", "shared", "data");
    }
}
