package dev.compress.demo;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code ./compress demo [options]}: the whole product on one real node, from raw vectors to a results
 * table and an HTML report. The script passes the build directory ({@code compress.build.dir}) and
 * whether stdout is a terminal ({@code compress.terminal}).
 */
public final class DemoMain {

    private DemoMain() {}

    public static void main(String[] args) {
        List<String> all = Arrays.asList(args);
        if (all.isEmpty() || all.get(0).equals("demo") == false) {
            System.err.println("the only command is 'demo'\n" + DemoOptions.USAGE);
            System.exit(2);
        }
        DemoOptions options;
        try {
            options = DemoOptions.parse(
                    all.subList(1, all.size()), Path.of(System.getProperty("compress.build.dir", "target")));
        } catch (DemoOptions.UsageException e) {
            System.err.println((e.getMessage().isEmpty() ? "" : e.getMessage() + "\n") + DemoOptions.USAGE);
            System.exit(e.getMessage().isEmpty() ? 0 : 2);
            return;
        }
        ProgressDisplay progress = new ProgressDisplay(System.out, Boolean.getBoolean("compress.terminal"));
        try {
            new DemoRun(options, progress).run();
            System.exit(0);
        } catch (Exception e) {
            progress.step("failed", e.getMessage() == null ? e.toString() : e.getMessage());
            if (Boolean.getBoolean("compress.debug")) {
                e.printStackTrace();
            }
            System.exit(1);
        }
    }
}
