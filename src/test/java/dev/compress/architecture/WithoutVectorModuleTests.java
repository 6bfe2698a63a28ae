package dev.compress.architecture;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/**
 * Every Vector API kernel has a plain Java fallback for a JVM started without {@code --add-modules
 * jdk.incubator.vector} (a Lucene tool run by hand, a program of one's own): a child JVM without the
 * module runs {@link WithoutVectorModuleProbe}, whose rescored search of a binary field and corpus PCA
 * take those fallbacks, and gets the exact top k and the PCA this JVM (with the module) gets. A class
 * that holds vector code in its own methods cannot even be loaded there, fallback or not.
 */
public class WithoutVectorModuleTests {

    @Test
    public void rescoringAndPcaRunWithoutTheModule() throws Exception {
        Map<String, String> child = runProbeWithoutModule();
        assertEquals("the child JVM must lack the module, or this test checks nothing", "false", child.get("module"));
        assertEquals("true", child.get("rescored_equals_exact"));
        float[][] vectors = WithoutVectorModuleProbe.vectors(new Random(11));
        assertEquals(
                String.valueOf(WithoutVectorModuleProbe.intrinsicDimension(vectors)), child.get("intrinsic_dimension"));
    }

    @Test
    public void thisJvmTakesTheVectorApi() throws Exception {
        assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent());
        assertTrue(WithoutVectorModuleProbe.rescoredEqualsExact(WithoutVectorModuleProbe.vectors(new Random(11))));
    }

    private static Map<String, String> runProbeWithoutModule() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(
                        java.toString(),
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        WithoutVectorModuleProbe.class.getName())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue("probe did not finish", process.waitFor(120, TimeUnit.SECONDS));
        assertEquals("probe failed:\n" + output, 0, process.exitValue());
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
