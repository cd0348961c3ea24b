package io.flinkivm.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;

/**
 * A Flink standalone session cluster on this machine, on 127.0.0.1 only, started from the project's own files:
 * a JobManager ({@value #JOB_MANAGER_CLASS}, with the web UI) and TaskManagers ({@value #TASK_MANAGER_CLASS}),
 * each a JVM of its own, run from the jars of {@link ClusterClasspath} with the configuration of
 * {@link ClusterConfiguration}. {@code scripts/local-cluster.sh} and the integration tests both use it.
 *
 * <p>Everything lives in the cluster's home directory: {@code conf/} (config.yaml, Log4j), {@code log/} (each
 * process's Flink log and stdout), {@code pids/} (a file per running process), {@code checkpoints/},
 * {@code savepoints/}, {@code tmp/}, {@code classpath.txt}. {@link #close()} stops every process this cluster
 * started, and so does a JVM shutdown hook if the cluster was started {@link Lifetime#WITH_THIS_JVM}; the pid
 * files let {@link #killLeftovers(Path)} end the processes of a cluster whose starting JVM was killed.
 */
public final class LocalFlinkCluster implements AutoCloseable {

    /** The JobManager's entry point (as Flink's {@code bin/jobmanager.sh} starts it). */
    public static final String JOB_MANAGER_CLASS =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    /** The TaskManager's entry point (as Flink's {@code bin/taskmanager.sh} starts it). */
    public static final String TASK_MANAGER_CLASS = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    /** Flink's command line client ({@code bin/flink}). */
    public static final String CLIENT_CLASS = "org.apache.flink.client.cli.CliFrontend";

    /** The system property that marks a process as one of the cluster whose home it names. */
    static final String HOME_PROPERTY = "flinkivm.cluster.home";

    /** How long {@link #close()} waits for a process after SIGTERM before it sends SIGKILL. */
    static final int STOP_TIMEOUT_SECONDS = 30;

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final String OWNER_FILE = "owner.pid";
    private static final String CLASSPATH_FILE = "classpath.txt";

    /** How long the cluster lives. */
    public enum Lifetime {
        /** Until {@link #close()} or the end of the JVM that started it (tests). */
        WITH_THIS_JVM,
        /** Until {@link #close()} is called, possibly from another JVM (scripts/local-cluster.sh). */
        UNTIL_STOPPED
    }

    /** A process of the cluster: its name (jobmanager, taskmanager-1, ...), the process, its log files. */
    public record ClusterProcess(String name, ProcessHandle handle, Path log, Path out) {
        public long pid() {
            return handle.pid();
        }

        public boolean isAlive() {
            return handle.isAlive();
        }
    }

    /** The outcome of a run of Flink's command line client. */
    public record ClientRun(int exitCode, String output) {}

    private final Path home;
    private final List<Path> classpath;
    private final Configuration conf;
    private final FlinkRest rest;
    private final Map<String, ClusterProcess> processes = new LinkedHashMap<>();
    private int jobManagers;
    private int taskManagers;
    private int clients;
    private Thread shutdownHook;
    private boolean closed;

    private LocalFlinkCluster(Path home, List<Path> classpath, Configuration conf) {
        this.home = home.toAbsolutePath().normalize();
        this.classpath = List.copyOf(classpath);
        this.conf = conf;
        this.rest = new FlinkRest(URI.create("http://127.0.0.1:" + ClusterConfiguration.restPort(conf)));
    }

    /**
     * Starts a cluster in {@code home}: writes its configuration ({@code overrides} on top of
     * {@link ClusterConfiguration}, free ports), starts a JobManager and {@code taskManagers} TaskManagers and
     * returns once they have registered and the cluster accepts jobs (also jars through the REST API).
     *
     * @throws IllegalStateException if a cluster is running in {@code home} already, or a process does not come up
     *     (the message holds the end of its log)
     */
    public static LocalFlinkCluster start(
            Path home, List<Path> classpath, int taskManagers, Map<String, String> overrides, Lifetime lifetime)
            throws IOException, InterruptedException {
        Optional<LocalFlinkCluster> running = attach(home);
        if (running.isPresent() && !running.get().processes().isEmpty()) {
            throw new IllegalStateException("a local cluster is running in " + home + " already ("
                    + running.get().rest().base() + "); stop it first");
        }
        Files.createDirectories(home.resolve("pids"));
        Files.createDirectories(home.resolve("log"));
        Files.createDirectories(home.resolve("tmp"));
        Configuration conf = ClusterConfiguration.of(
                home.toAbsolutePath().normalize(), new ClusterConfiguration.Ports(freePort(), freePort()), overrides);
        ClusterConfiguration.write(conf, home.resolve("conf"));
        Files.writeString(home.resolve(CLASSPATH_FILE), classpathString(classpath), StandardCharsets.UTF_8);
        LocalFlinkCluster cluster = new LocalFlinkCluster(home, classpath, conf);
        if (lifetime == Lifetime.WITH_THIS_JVM) {
            Files.writeString(
                    home.resolve(OWNER_FILE),
                    Long.toString(ProcessHandle.current().pid()));
            cluster.shutdownHook = new Thread(cluster::stopQuietly, "stop the local Flink cluster in " + home);
            Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        }
        try {
            cluster.startJobManager();
            for (int i = 0; i < taskManagers; i++) {
                cluster.startTaskManager();
            }
            cluster.awaitReady(taskManagers, START_TIMEOUT);
        } catch (IOException | RuntimeException | InterruptedException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** The cluster in {@code home} (its configuration and its live processes), if it was ever started there. */
    public static Optional<LocalFlinkCluster> attach(Path home) throws IOException {
        Path conf = home.resolve("conf").resolve(ClusterConfiguration.CONFIG_FILE);
        Path cp = home.resolve(CLASSPATH_FILE);
        if (!Files.isRegularFile(conf) || !Files.isRegularFile(cp)) {
            return Optional.empty();
        }
        List<Path> classpath = new ArrayList<>();
        for (String entry : Files.readString(cp, StandardCharsets.UTF_8).trim().split(File.pathSeparator)) {
            classpath.add(Path.of(entry));
        }
        LocalFlinkCluster cluster =
                new LocalFlinkCluster(home, classpath, ClusterConfiguration.read(home.resolve("conf")));
        for (Map.Entry<String, ProcessHandle> e : livePids(cluster.home).entrySet()) {
            String name = e.getKey();
            cluster.processes.put(name, cluster.process(name, e.getValue()));
        }
        return Optional.of(cluster);
    }

    /**
     * Ends the processes of every cluster under {@code parent} whose starting JVM is gone (a test JVM that was
     * killed cannot run its shutdown hook). Only processes whose command line names their cluster's home are
     * killed, so a recycled pid is left alone.
     *
     * @return the processes killed
     */
    public static int killLeftovers(Path parent) throws IOException {
        if (!Files.isDirectory(parent)) {
            return 0;
        }
        int killed = 0;
        try (Stream<Path> homes = Files.list(parent)) {
            for (Path home : homes.toList()) {
                Path owner = home.resolve(OWNER_FILE);
                if (!Files.isRegularFile(owner)
                        || isAlive(Files.readString(owner).trim())) {
                    continue;
                }
                for (Map.Entry<String, ProcessHandle> e : livePids(home).entrySet()) {
                    e.getValue().destroyForcibly();
                    e.getValue().onExit().join();
                    Files.deleteIfExists(home.resolve("pids").resolve(e.getKey() + ".pid"));
                    killed++;
                }
                Files.deleteIfExists(owner);
            }
        }
        return killed;
    }

    /** The REST API (and web UI) address, e.g. {@code http://127.0.0.1:40123}. */
    public FlinkRest rest() {
        return rest;
    }

    public Path home() {
        return home;
    }

    public Path configDirectory() {
        return home.resolve("conf");
    }

    /** The configuration the cluster runs with. */
    public Configuration configuration() {
        return new Configuration(conf);
    }

    /** The jars the cluster runs Flink from. */
    public List<Path> classpath() {
        return classpath;
    }

    /** The cluster's live processes, in the order they were started. */
    public synchronized List<ClusterProcess> processes() {
        List<ClusterProcess> out = new ArrayList<>();
        for (ClusterProcess p : processes.values()) {
            if (p.isAlive()) {
                out.add(p);
            }
        }
        return out;
    }

    /** The live TaskManagers, oldest first. */
    public List<ClusterProcess> taskManagers() {
        return processes().stream()
                .filter(p -> p.name().startsWith("taskmanager"))
                .toList();
    }

    /** The live JobManager, if any. */
    public Optional<ClusterProcess> jobManager() {
        return processes().stream()
                .filter(p -> p.name().startsWith("jobmanager"))
                .findFirst();
    }

    /** Starts a JobManager (the first, or a new one after the previous one died). */
    public synchronized ClusterProcess startJobManager() throws IOException {
        jobManagers++;
        String name = jobManagers == 1 ? "jobmanager" : "jobmanager-" + jobManagers;
        return launch(name, JOB_MANAGER_CLASS, ClusterConfiguration.jobManagerJvmOptions(conf));
    }

    /** Starts one more TaskManager; {@link #awaitTaskManagers} waits until it has registered. */
    public synchronized ClusterProcess startTaskManager() throws IOException {
        taskManagers++;
        return launch(
                "taskmanager-" + taskManagers, TASK_MANAGER_CLASS, ClusterConfiguration.taskManagerJvmOptions(conf));
    }

    /**
     * Kills {@code p} with SIGKILL (no shutdown hook, no goodbye to the JobManager: a lost machine) and waits
     * until it is gone.
     *
     * @return the time of the kill
     */
    public Instant kill(ClusterProcess p) throws IOException {
        Instant at = Instant.now();
        p.handle().destroyForcibly();
        p.handle().onExit().join();
        forget(p);
        return at;
    }

    /** Waits until {@code n} TaskManagers have registered with the JobManager. */
    public void awaitTaskManagers(int n, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            checkAlive();
            try {
                JsonNode overview = rest.get("/overview");
                if (overview.path("taskmanagers").asInt() == n) {
                    return;
                }
            } catch (IOException e) {
                // Not up yet, or between two leaders.
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(n + " TaskManagers did not register within " + timeout + describe());
            }
            Thread.sleep(200);
        }
    }

    /** Waits until {@code n} TaskManagers have registered and the REST API takes jars. */
    private void awaitReady(int n, Duration timeout) throws IOException, InterruptedException {
        awaitTaskManagers(n, timeout);
        rest.get("/jars");
    }

    /**
     * Runs Flink's command line client against this cluster ({@code flink ARGS}, as Flink's {@code bin/flink}
     * does: the cluster's classpath and configuration directory) and waits for it.
     */
    public ClientRun flink(Duration timeout, List<String> args) throws IOException, InterruptedException {
        Path out;
        synchronized (this) {
            clients++;
            out = home.resolve("log").resolve("client-" + clients + ".out");
        }
        Process p = client(args, out.resolveSibling(out.getFileName().toString().replace(".out", ".log")))
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        p.getOutputStream().close();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly().waitFor();
            throw new IllegalStateException("flink " + String.join(" ", args) + " did not end within " + timeout
                    + "; output:\n" + Files.readString(out));
        }
        return new ClientRun(p.exitValue(), Files.readString(out));
    }

    /** The command line client as a process builder: the caller decides where its output goes. */
    public ProcessBuilder client(List<String> args, Path log) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(ClusterConfiguration.clientJvmOptions(conf));
        command.add("-Dlog.file=" + log);
        command.add("-Dlog4j.configurationFile="
                + configDirectory().resolve(ClusterConfiguration.LOG4J_CLI_FILE).toUri());
        command.add("-cp");
        command.add(classpathString(classpath));
        command.add(CLIENT_CLASS);
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("FLINK_CONF_DIR", configDirectory().toString());
        return pb;
    }

    /**
     * Stops every process of the cluster: SIGTERM (Flink shuts down in order), SIGKILL for those still alive
     * after {@value #STOP_TIMEOUT_SECONDS} s. A second call does nothing.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stopQuietly();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down: the hook runs (or ran) stopQuietly itself.
            }
        }
    }

    private void stopQuietly() {
        List<ClusterProcess> all = processes();
        // TaskManagers first, then the JobManager: each side says goodbye to a peer that is still there.
        List<ClusterProcess> taskManagers = taskManagers();
        taskManagers.forEach(p -> p.handle().destroy());
        awaitExit(taskManagers);
        all.forEach(p -> p.handle().destroy());
        awaitExit(all);
        for (ClusterProcess p : List.copyOf(processes.values())) {
            try {
                forget(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try {
            Files.deleteIfExists(home.resolve(OWNER_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitExit(List<ClusterProcess> ps) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_SECONDS);
        for (ClusterProcess p : ps) {
            long left = deadline - System.nanoTime();
            try {
                p.handle().onExit().get(Math.max(1, left), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                p.handle().destroyForcibly();
                p.handle().onExit().join();
            }
        }
    }

    /** Lines for a person: the REST address and each process with its pid and log. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("\nrest: ").append(rest.base()).append('\n');
        for (ClusterProcess p : processes.values()) {
            sb.append(p.name())
                    .append(": pid ")
                    .append(p.pid())
                    .append(p.isAlive() ? "" : " (exited)")
                    .append(", log ")
                    .append(p.log())
                    .append('\n');
            if (!p.isAlive()) {
                sb.append(tail(p.out(), 20)).append(tail(p.log(), 40));
            }
        }
        return sb.toString();
    }

    private ClusterProcess launch(String name, String mainClass, List<String> jvmOptions) throws IOException {
        ClusterProcess placeholder = process(name, null);
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmOptions);
        command.add("-D" + HOME_PROPERTY + "=" + home);
        command.add("-Dlog.file=" + placeholder.log());
        command.add("-Dlog4j.configurationFile="
                + configDirectory().resolve(ClusterConfiguration.LOG4J_FILE).toUri());
        command.add("-cp");
        command.add(classpathString(classpath));
        command.add(mainClass);
        command.add("--configDir");
        command.add(configDirectory().toString());
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(
                        ProcessBuilder.Redirect.appendTo(placeholder.out().toFile()));
        pb.environment().put("FLINK_CONF_DIR", configDirectory().toString());
        Process process = pb.start();
        process.getOutputStream().close();
        Files.writeString(
                home.resolve("pids").resolve(name + ".pid"), Long.toString(process.pid()), StandardCharsets.UTF_8);
        ClusterProcess p = process(name, process.toHandle());
        synchronized (this) {
            processes.put(name, p);
        }
        return p;
    }

    private ClusterProcess process(String name, ProcessHandle handle) {
        Path log = home.resolve("log");
        return new ClusterProcess(name, handle, log.resolve(name + ".log"), log.resolve(name + ".out"));
    }

    private synchronized void forget(ClusterProcess p) throws IOException {
        Files.deleteIfExists(home.resolve("pids").resolve(p.name() + ".pid"));
    }

    private void checkAlive() {
        for (ClusterProcess p : processes.values()) {
            if (!p.isAlive() && Files.exists(home.resolve("pids").resolve(p.name() + ".pid"))) {
                throw new IllegalStateException(p.name() + " exited" + describe());
            }
        }
    }

    /** The live processes of the cluster in {@code home}, by name, from its pid files. */
    private static Map<String, ProcessHandle> livePids(Path home) throws IOException {
        Map<String, ProcessHandle> out = new LinkedHashMap<>();
        Path pids = home.resolve("pids");
        if (!Files.isDirectory(pids)) {
            return out;
        }
        try (Stream<Path> files = Files.list(pids)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".pid")) {
                    continue;
                }
                Optional<ProcessHandle> h =
                        ProcessHandle.of(Long.parseLong(Files.readString(f).trim()));
                if (h.isPresent() && h.get().isAlive() && belongsTo(h.get(), home)) {
                    out.put(name.substring(0, name.length() - ".pid".length()), h.get());
                } else {
                    Files.deleteIfExists(f);
                }
            }
        }
        return out;
    }

    /**
     * Whether the command line of {@code p} marks it as a process of the cluster in {@code home} (Linux's
     * {@code /proc}, else what the JDK can tell; where neither can, the pid file is trusted).
     */
    private static boolean belongsTo(ProcessHandle p, Path home) {
        String marker = "-D" + HOME_PROPERTY + "=" + home.toAbsolutePath().normalize();
        Path cmdline = Path.of("/proc", Long.toString(p.pid()), "cmdline");
        try {
            if (Files.isReadable(cmdline)) {
                return Files.readString(cmdline, StandardCharsets.ISO_8859_1).contains(marker);
            }
        } catch (IOException e) {
            return false;
        }
        return p.info().commandLine().map(c -> c.contains(marker)).orElse(true);
    }

    private static boolean isAlive(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid))
                    .map(ProcessHandle::isAlive)
                    .orElse(false);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String tail(Path file, int lines) {
        try {
            if (!Files.exists(file)) {
                return "";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return "  --- end of " + file + " ---\n  "
                    + String.join("\n  ", all.subList(Math.max(0, all.size() - lines), all.size())) + "\n";
        } catch (IOException | UncheckedIOException e) {
            return "  (cannot read " + file + ": " + e.getMessage() + ")\n";
        }
    }

    private static String classpathString(List<Path> classpath) {
        return String.join(
                File.pathSeparator, classpath.stream().map(Path::toString).toList());
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The lowest port tried by {@link #freePort()}: above the registered services most machines run. */
    private static final int LOWEST_PORT = 10_000;

    /**
     * A port that is free on 127.0.0.1 now, for a server that binds it a moment later. It is taken below
     * the kernel's ephemeral range: a port from that range (what binding port 0 gives) may become the
     * source port of any outgoing connection on the machine before the server binds it, which once
     * stopped a REST endpoint from starting. Falls back to an ephemeral port when no range lies below.
     */
    public static int freePort() throws IOException {
        int ephemeralStart = ephemeralPortsStart();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 100 && ephemeralStart > LOWEST_PORT; attempt++) {
            int port = random.nextInt(LOWEST_PORT, ephemeralStart);
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                return port;
            } catch (IOException inUse) {
                // Another one.
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The first port of Linux's ephemeral range ({@code ip_local_port_range}), or IANA's 49152 elsewhere. */
    private static int ephemeralPortsStart() {
        try {
            // Not Files.readString: on this /proc file it returns the first byte only.
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"), StandardCharsets.UTF_8)
                    .get(0);
            return Integer.parseInt(range.trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException notLinux) {
            return 49_152;
        }
    }
}
