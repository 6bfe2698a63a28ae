package dev.compress.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A memory cgroup made for one searching process: its limit covers the process's own memory and
 * the page cache it faults in, so a limit below the index's size makes the kernel drop index pages
 * and read them again from disk. Needs a writable cgroup file system (v1 {@code memory} controller
 * or v2 with the {@code memory} controller available), as root in a container or VM has. Only
 * the v1 path has run (this project's machines mount v1); v2 follows the kernel's documented files.
 */
final class MemoryCgroup implements AutoCloseable {

    private static final Path V1_ROOT = Path.of("/sys/fs/cgroup/memory");
    private static final Path V2_ROOT = Path.of("/sys/fs/cgroup");

    private final Path dir;
    private final boolean v1;

    private MemoryCgroup(Path dir, boolean v1) {
        this.dir = dir;
        this.v1 = v1;
    }

    /** A new cgroup without a limit yet. */
    static MemoryCgroup create(String name) throws IOException {
        boolean v1 = Files.exists(V1_ROOT.resolve("memory.limit_in_bytes"));
        Path root = v1 ? V1_ROOT : V2_ROOT;
        if (v1 == false) {
            Path controllers = V2_ROOT.resolve("cgroup.controllers");
            if (Files.exists(controllers) == false
                    || List.of(Files.readString(controllers).trim().split(" ")).contains("memory") == false) {
                throw new IllegalStateException("the memory section needs a memory cgroup: neither " + V1_ROOT
                        + " (v1) nor a v2 memory controller is here");
            }
            Files.writeString(V2_ROOT.resolve("cgroup.subtree_control"), "+memory");
        }
        Path dir = root.resolve(name);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IOException(
                    "cannot create the memory cgroup " + dir + " (the memory section needs root): " + e.getMessage(),
                    e);
        }
        return new MemoryCgroup(dir, v1);
    }

    /** Caps the memory of the cgroup's processes, page cache included, at {@code bytes}. */
    void limit(long bytes) throws IOException {
        Files.writeString(dir.resolve(v1 ? "memory.limit_in_bytes" : "memory.max"), Long.toString(bytes));
    }

    /** Bytes charged to the cgroup now: its processes' memory and the page cache they brought in. */
    long usageBytes() throws IOException {
        return Long.parseLong(Files.readString(dir.resolve(v1 ? "memory.usage_in_bytes" : "memory.current"))
                .trim());
    }

    /**
     * Moves a running process (every thread of it) into the cgroup. What it holds already stays
     * charged where it was (v1 kernels that still honour {@code move_charge_at_immigrate} move its
     * anonymous memory's charge along; newer ones refuse the setting), so from here the cgroup's
     * usage counts what the process newly brings in: the pages it reads, and memory it touches anew.
     */
    void adopt(long pid) throws IOException {
        if (v1) {
            try {
                Files.writeString(dir.resolve("memory.move_charge_at_immigrate"), "1");
            } catch (IOException refused) {
                // deprecated and refused (EINVAL) by recent kernels: charges then stay behind
            }
        }
        Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid));
    }

    /** Moves a process back to the root cgroup, so that this one can be removed while it runs on. */
    void release(long pid) throws IOException {
        Files.writeString((v1 ? V1_ROOT : V2_ROOT).resolve("cgroup.procs"), Long.toString(pid));
    }

    /** {@code command} run by a shell that first moves itself into this cgroup. */
    List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(
                List.of("sh", "-c", "echo $$ > " + dir.resolve("cgroup.procs") + " && exec \"$@\"", "sh"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Removes the cgroup (its processes must have exited); the kernel moves its pages to the parent. */
    @Override
    public void close() throws IOException {
        Files.deleteIfExists(dir);
    }
}
