package io.flinkivm.bench.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Java side of {@code scripts/local-cluster.sh}: {@code start|stop|status|flink ARGS} for the
 * {@link LocalFlinkCluster} in one home directory ({@code $LOCAL_CLUSTER_HOME}, by default
 * {@code target/local-cluster} of the repository). Exit codes: 0 done, 1 failure (or, for {@code status}, no
 * cluster running), 2 bad arguments; {@code flink} exits with the client's code.
 */
public final class LocalClusterCommand {

    static final String USAGE = String.join(
            "\n",
            "Usage: scripts/local-cluster.sh COMMAND",
            "  start [--taskmanagers N] [--conf KEY=VALUE]...",
            "                 start a JobManager (web UI) and N TaskManagers (default 2, 2 slots each) on",
            "                 127.0.0.1; returns once the cluster accepts jobs, then prints what status prints",
            "  status         the REST address (a line 'rest: http://127.0.0.1:<port>') and the processes",
            "  stop           stop every process that start began",
            "  flink ARGS     Flink's command line client against the cluster, e.g.",
            "                 flink run -c io.flinkivm.examples.cli.Main <cluster jar> example ex10",
            "Environment: LOCAL_CLUSTER_HOME (default: target/local-cluster in the repository) holds the",
            "configuration (conf/config.yaml), logs (log/), pid files, checkpoints and savepoints.",
            "");

    private LocalClusterCommand() {}

    public static void main(String[] args) {
        System.exit(run(Path.of(System.getProperty("flinkivm.root", ".")), home(), System.out, System.err, args));
    }

    private static Path home() {
        String env = System.getenv("LOCAL_CLUSTER_HOME");
        return env == null || env.isBlank()
                ? Path.of(System.getProperty("flinkivm.root", "."), "target", "local-cluster")
                : Path.of(env);
    }

    /**
     * Runs one command for the repository at {@code root} and the cluster in {@code home}; returns the exit code.
     */
    static int run(Path root, Path home, PrintStream out, PrintStream err, String... args) {
        if (args.length == 0) {
            err.print(USAGE);
            return 2;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            return switch (args[0]) {
                case "start" -> start(root, home, rest, out, err);
                case "stop" -> stop(home, out);
                case "status" -> status(home, out);
                case "flink" -> flink(home, rest, err);
                case "-h", "--help", "help" -> {
                    out.print(USAGE);
                    yield 0;
                }
                default -> {
                    err.print("unknown command '" + args[0] + "'\n" + USAGE);
                    yield 2;
                }
            };
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.print(USAGE);
            return 2;
        } catch (IOException | IllegalStateException e) {
            err.println("local-cluster " + args[0] + ": " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("local-cluster " + args[0] + ": interrupted");
            return 1;
        }
    }

    private static int start(Path root, Path home, List<String> args, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        int taskManagers = 2;
        Map<String, String> conf = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            String value = args.get(++i);
            switch (a) {
                case "--taskmanagers" -> {
                    try {
                        taskManagers = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--taskmanagers expects a number, got '" + value + "'");
                    }
                    if (taskManagers < 1) {
                        throw new IllegalArgumentException("--taskmanagers must be >= 1, got " + taskManagers);
                    }
                }
                case "--conf" -> {
                    int eq = value.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--conf expects KEY=VALUE, got '" + value + "'");
                    }
                    conf.put(
                            value.substring(0, eq).trim(),
                            value.substring(eq + 1).trim());
                }
                default -> throw new IllegalArgumentException("unknown option '" + a + "' of start");
            }
        }
        List<Path> classpath = ClusterClasspath.of(
                root.resolve("flink-ivm-bench/target/local-cluster-classpath.txt"),
                root.resolve("flink-ivm-examples/pom.xml"));
        err.println("starting a JobManager and " + taskManagers + " TaskManager" + (taskManagers == 1 ? "" : "s")
                + " in " + home.toAbsolutePath().normalize() + " ...");
        LocalFlinkCluster cluster =
                LocalFlinkCluster.start(home, classpath, taskManagers, conf, LocalFlinkCluster.Lifetime.UNTIL_STOPPED);
        out.print(status(cluster));
        return 0;
    }

    private static int stop(Path home, PrintStream out) throws IOException {
        Optional<LocalFlinkCluster> cluster = running(home);
        if (cluster.isEmpty()) {
            out.println("no local cluster running in " + home);
            return 0;
        }
        int n = cluster.get().processes().size();
        cluster.get().close();
        out.println("stopped " + n + " process" + (n == 1 ? "" : "es") + " of the local cluster in " + home);
        return 0;
    }

    private static int status(Path home, PrintStream out) throws IOException {
        Optional<LocalFlinkCluster> cluster = running(home);
        if (cluster.isEmpty()) {
            out.println("no local cluster running in " + home);
            return 1;
        }
        out.print(status(cluster.get()));
        return 0;
    }

    /** The cluster in {@code home} if any of its processes runs. */
    private static Optional<LocalFlinkCluster> running(Path home) throws IOException {
        return LocalFlinkCluster.attach(home).filter(c -> !c.processes().isEmpty());
    }

    private static String status(LocalFlinkCluster cluster) {
        StringBuilder sb = new StringBuilder();
        sb.append("rest: ").append(cluster.rest().base()).append('\n');
        sb.append("home: ").append(cluster.home()).append('\n');
        for (LocalFlinkCluster.ClusterProcess p : cluster.processes()) {
            sb.append(p.name())
                    .append(": pid ")
                    .append(p.pid())
                    .append(", log ")
                    .append(p.log())
                    .append('\n');
        }
        try {
            var overview = cluster.rest().get("/overview");
            sb.append("taskmanagers registered: ")
                    .append(overview.path("taskmanagers").asInt())
                    .append(", slots: ")
                    .append(overview.path("slots-available").asInt())
                    .append(" of ")
                    .append(overview.path("slots-total").asInt())
                    .append(" free, jobs running: ")
                    .append(overview.path("jobs-running").asInt())
                    .append('\n');
        } catch (IOException e) {
            sb.append("the REST API does not answer: ").append(e.getMessage()).append('\n');
        }
        return sb.toString();
    }

    private static int flink(Path home, List<String> args, PrintStream err) throws IOException, InterruptedException {
        Optional<LocalFlinkCluster> cluster = running(home);
        if (cluster.isEmpty()) {
            err.println("no local cluster running in " + home + "; run 'scripts/local-cluster.sh start' first");
            return 1;
        }
        Process p = cluster.get()
                .client(args, cluster.get().home().resolve("log").resolve("client.log"))
                .inheritIO()
                .start();
        return p.waitFor();
    }
}
