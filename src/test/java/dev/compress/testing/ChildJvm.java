package dev.compress.testing;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a probe's {@code main} in a JVM of its own, for what a test cannot change in its own JVM (a
 * smaller heap, a missing module): the same java and class path, the options given and nothing
 * else. The probe prints its results as {@code key=value} lines.
 */
public final class ChildJvm {

    private ChildJvm() {}

    /**
     * Runs {@code main} with {@code options} before the class path and {@code args} after the class,
     * asserts that it exits 0 within two minutes, and returns the {@code key=value} lines it printed.
     */
    public static Map<String, String> run(Class<?> main, List<String> options, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(main.getSimpleName() + " did not finish", process.waitFor(120, TimeUnit.SECONDS));
        assertEquals(main.getSimpleName() + " failed:\n" + output, 0, process.exitValue());
        Map<String, String> values = new HashMap<>();
        for (String line : output.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("WARNING")) {
                values.put(line.substring(0, eq), line.substring(eq + 1).strip());
            }
        }
        return values;
    }
}
