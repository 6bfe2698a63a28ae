package dev.compress.architecture;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.testing.ChildJvm;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
        Map<String, String> child = ChildJvm.run(WithoutVectorModuleProbe.class, List.of("-Xmx256m"));
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
}
