package io.flinkivm.bench;

import io.flinkivm.bench.state.ThreadCpu;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CPU time of one Flink job's task threads, per subtask, and what it says about the job's parallel
 * speed-up: the serial share (CPU of the chains running at parallelism 1 ÷ CPU of all task threads),
 * Amdahl's bound 1 / serial share, and per chain the imbalance across its subtasks (max ÷ mean).
 * Task threads are told apart by Flink's thread name {@code "chain name (i/P)#attempt"}
 * ({@link #parse}); a task's helper threads named after it (its network output flusher, a source's
 * split fetcher) count as that subtask, and chains with the same name and parallelism count as one.
 * Next to them, what the process's other threads used meanwhile: the JIT compiler, the garbage
 * collector, RocksDB's compaction and flush threads, Flink's and the bench's own ({@link ThreadCpu}).
 *
 * @param subtasks the job's task threads, one entry per thread
 * @param others CPU of the process's other threads while the job ran, by {@link ThreadCpu} group (task
 *     groups left out); empty if not measured (not on Linux, or a core engine)
 */
record TaskCpu(List<Subtask> subtasks, Map<String, Long> others) {

    /** No task threads were sampled (a core engine, or not on a JVM with per-thread CPU clocks). */
    static final TaskCpu NONE = new TaskCpu(List.of());

    /** The groups of {@link #others} that {@link #otherNanos} names, in this order; the rest is "other". */
    static final List<String> NAMED_OTHERS =
            List.of(ThreadCpu.JIT, ThreadCpu.GC, ThreadCpu.COMPACTION, ThreadCpu.FLUSH);

    /**
     * A chain whose share of the job's task CPU is below this is left out of {@link #maxImbalance}: on
     * a few milliseconds (a counter of dead letters, a source that only reads an array) the ratio is noise.
     */
    static final double IMBALANCE_MIN_SHARE = 0.05;

    /**
     * "chain name (subtask/parallelism)#attempt", Flink's name of a task thread, or of a helper thread of
     * the task that carries its name after one of {@link #HELPERS}.
     */
    private static final Pattern TASK_THREAD = Pattern.compile("(.*) \\((\\d+)/(\\d+)\\)#(\\d+)");
    /** Prefixes of Flink's per-task helper threads: the network buffers' flusher, a source's split fetcher. */
    private static final List<String> HELPERS = List.of("OutputFlusher for ", "Source Data Fetcher for ");

    /**
     * One task thread.
     *
     * @param chain the operator chain's name
     * @param index the subtask, 1-based as in the thread name
     * @param parallelism the chain's parallelism
     * @param cpuNanos CPU time the thread used during the job
     */
    record Subtask(String chain, int index, int parallelism, long cpuNanos) {}

    /**
     * One operator chain: its subtasks' CPU (index i-1 for subtask i; 0 for a subtask never seen).
     *
     * @param cpuNanos CPU per subtask
     */
    record Chain(String name, int parallelism, long[] cpuNanos) {

        long total() {
            long sum = 0;
            for (long c : cpuNanos) {
                sum += c;
            }
            return sum;
        }

        /** Max subtask CPU ÷ mean subtask CPU: 1 is even, P means one subtask did all; NaN without CPU. */
        double imbalance() {
            long total = total();
            if (total <= 0) {
                return Double.NaN;
            }
            long max = 0;
            for (long c : cpuNanos) {
                max = Math.max(max, c);
            }
            return max / ((double) total / cpuNanos.length);
        }
    }

    TaskCpu {
        subtasks = List.copyOf(subtasks);
        others = Collections.unmodifiableMap(new TreeMap<>(others));
    }

    /** Task threads only. */
    TaskCpu(List<Subtask> subtasks) {
        this(subtasks, Map.of());
    }

    /**
     * This with the other threads' CPU of {@code threads}, a difference of two {@link ThreadCpu#sample}s
     * around the job: its task groups are left out (the subtasks count them, per thread), and so are
     * groups whose threads ended meanwhile so that they used less than nothing.
     */
    TaskCpu withOthers(Map<String, Long> threads) {
        Map<String, Long> kept = new TreeMap<>();
        threads.forEach((group, nanos) -> {
            if (!group.startsWith(ThreadCpu.TASK) && nanos > 0) {
                kept.put(group, nanos);
            }
        });
        return new TaskCpu(subtasks, kept);
    }

    /** CPU of the other threads in {@code group}, one of {@link #NAMED_OTHERS}. */
    long otherNanos(String group) {
        return others.getOrDefault(group, 0L);
    }

    /** CPU of the other threads outside {@link #NAMED_OTHERS}. */
    long unnamedOtherNanos() {
        long sum = 0;
        for (Map.Entry<String, Long> e : others.entrySet()) {
            if (!NAMED_OTHERS.contains(e.getKey())) {
                sum += e.getValue();
            }
        }
        return sum;
    }

    /** The subtask a thread name stands for (with no CPU yet), or null if it is not a Flink task thread. */
    static Subtask parse(String threadName) {
        Matcher m = TASK_THREAD.matcher(threadName);
        if (!m.matches()) {
            return null;
        }
        int index = Integer.parseInt(m.group(2));
        int parallelism = Integer.parseInt(m.group(3));
        if (index < 1 || index > parallelism) {
            return null;
        }
        String chain = m.group(1);
        for (String helper : HELPERS) {
            if (chain.startsWith(helper)) {
                chain = chain.substring(helper.length());
            }
        }
        return new Subtask(chain, index, parallelism, 0);
    }

    /** CPU of all task threads. */
    long totalNanos() {
        long sum = 0;
        for (Subtask s : subtasks) {
            sum += s.cpuNanos();
        }
        return sum;
    }

    /** CPU of the task threads of chains at parallelism 1. */
    long serialNanos() {
        long sum = 0;
        for (Subtask s : subtasks) {
            if (s.parallelism() == 1) {
                sum += s.cpuNanos();
            }
        }
        return sum;
    }

    /** Serial CPU ÷ all task CPU, in [0, 1]; NaN if no task CPU was measured. At P = 1 it is 1. */
    double serialShare() {
        long total = totalNanos();
        return total <= 0 ? Double.NaN : (double) serialNanos() / total;
    }

    /**
     * Amdahl's bound on the speed-up of the job's task work over any number of cores, 1 / serial share
     * (infinite when nothing runs at parallelism 1); NaN if unknown.
     */
    double amdahlBound() {
        double s = serialShare();
        return Double.isNaN(s) ? Double.NaN : 1 / s;
    }

    /**
     * The chains, each with its subtasks' CPU: the sources' chains first, then the others in the order
     * of their first subtask in {@link #subtasks} (the sampler gives threads in creation order, which
     * under load need not put a source first).
     */
    List<Chain> chains() {
        Map<String, Chain> chains = new LinkedHashMap<>();
        for (Subtask s : subtasks) {
            Chain c = chains.computeIfAbsent(
                    s.chain() + " (" + s.parallelism() + ")",
                    k -> new Chain(s.chain(), s.parallelism(), new long[s.parallelism()]));
            c.cpuNanos()[s.index() - 1] += s.cpuNanos();
        }
        List<Chain> ordered = new ArrayList<>(chains.values());
        ordered.sort(Comparator.comparing(c -> !c.name().startsWith("Source: ")));
        return ordered;
    }

    /** A chain's share of all task CPU. */
    double share(Chain c) {
        long total = totalNanos();
        return total <= 0 ? Double.NaN : (double) c.total() / total;
    }

    /**
     * The chain at parallelism > 1 with the largest {@link Chain#imbalance} among those with at least
     * {@link #IMBALANCE_MIN_SHARE} of the task CPU; null if there is none (every chain at parallelism 1).
     */
    Chain mostImbalanced() {
        Chain worst = null;
        for (Chain c : chains()) {
            if (c.parallelism() < 2 || !(share(c) >= IMBALANCE_MIN_SHARE) || Double.isNaN(c.imbalance())) {
                continue;
            }
            if (worst == null || c.imbalance() > worst.imbalance()) {
                worst = c;
            }
        }
        return worst;
    }

    /** {@link #mostImbalanced}'s imbalance; NaN if there is no such chain. */
    double maxImbalance() {
        Chain c = mostImbalanced();
        return c == null ? Double.NaN : c.imbalance();
    }
}
