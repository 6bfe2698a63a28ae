package dev.compress.training.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import ai.djl.Device;
import org.junit.Test;

public class DeviceChoiceTests {

    @Test
    public void autoPicksGpuOnlyWhenPresent() {
        assertEquals(Device.cpu(), DeviceChoice.AUTO.resolve(0));
        assertEquals(Device.gpu(0), DeviceChoice.AUTO.resolve(2));
        assertEquals(Device.cpu(), DeviceChoice.CPU.resolve(2));
        assertEquals(Device.gpu(0), DeviceChoice.GPU.resolve(1));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> DeviceChoice.GPU.resolve(0));
        assertTrue(e.getMessage(), e.getMessage().contains("no GPU"));
    }

    @Test
    public void parsesNamesAndRejectsOthers() {
        assertEquals(DeviceChoice.GPU, DeviceChoice.parse(" Gpu "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceChoice.parse("tpu"));
        assertTrue(e.getMessage(), e.getMessage().contains("'tpu'"));
    }

    @Test
    public void autoResolvesToAGpuOnlyWhenTheEngineReportsOne() {
        // the CPU on a machine without a GPU, as CI is
        Device expected = DjlRuntime.status().gpuCount() > 0 ? Device.gpu(0) : Device.cpu();
        assertEquals(expected, DeviceChoice.AUTO.resolve());
    }
}
