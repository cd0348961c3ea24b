package io.flinkivm.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Samples the CPU time of the Flink task threads of one job while it runs, for {@link TaskCpu}. A task
 * thread ends with its task, before the job's result arrives, so one sample before and one after the
 * job would miss every task thread: instead a daemon thread reads each task thread's CPU clock every
 * {@value #INTERVAL_MILLIS} ms, and a thread's CPU is its last reading (what it used after that, at most
 * one interval of its final moments, is not counted). Threads that were alive when sampling started
 * belong to an earlier job and are left out.
 *
 * <p>Task threads are the threads of Flink's "Flink Task Threads" group; they are told apart by their
 * full Java name ({@code "chain (i/P)#attempt"}, {@link TaskCpu#parse}). Their CPU comes from the JVM's
 * per-thread clock ({@link ThreadMXBean#getThreadCpuTime}, on Linux the kernel's per-thread run time,
 * as {@code /proc/self/task/TID/schedstat} shows it, in ns): {@code /proc/self/task} names a thread
 * only by its first 15 characters, which do not tell the subtasks of a long chain name apart. The
 * sampler's own CPU is kept ({@link #ownCpuNanos}) so that the caller can leave it out of the job's.
 */
final class TaskThreadSampler {
    static final long INTERVAL_MILLIS = 2;
    /** Flink's {@code Task.TASK_THREADS_GROUP}. */
    static final String TASK_GROUP_NAME = "Flink Task Threads";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** A task thread of this job and its last reading. */
    private static final class Seen {
        final TaskCpu.Subtask subtask;
        /** Java's id of the thread, increasing in creation order. */
        final long threadId;

        long cpu;

        Seen(TaskCpu.Subtask subtask, long threadId) {
            this.subtask = subtask;
            this.threadId = threadId;
        }
    }

    private final Set<Long> earlier = new HashSet<>();
    /** Thread id to its reading; null value: not a task thread of this job. Touched by the poller only, until it has ended. */
    private final Map<Long, Seen> seen = new HashMap<>();

    private final List<Seen> order = new ArrayList<>();
    private final Thread poller;
    private volatile boolean stopped;
    private boolean started;
    private volatile long ownCpuNanos;
    private ThreadGroup group;
    private Thread[] buffer = new Thread[64];

    private TaskThreadSampler() {
        group = findGroup();
        if (group != null) {
            int k = enumerate();
            for (int i = 0; i < k; i++) {
                earlier.add(buffer[i].getId());
            }
        }
        poller = new Thread(this::pollUntilStopped, "bench task-cpu sampler");
        poller.setDaemon(true);
    }

    /** Whether this JVM measures per-thread CPU time; if not, {@link #stop} returns {@link TaskCpu#NONE}. */
    static boolean supported() {
        return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    }

    /** Starts sampling; the task threads that run now are not counted. */
    static TaskThreadSampler start() {
        TaskThreadSampler s = new TaskThreadSampler();
        if (supported()) {
            s.started = true;
            s.poller.start();
        }
        return s;
    }

    /** Stops sampling after one last reading; the CPU of each task thread this job started. */
    TaskCpu stop() throws InterruptedException {
        stopped = true;
        if (!started) {
            return TaskCpu.NONE;
        }
        poller.join();
        order.sort(Comparator.comparingLong(s -> s.threadId));
        List<TaskCpu.Subtask> out = new ArrayList<>(order.size());
        for (Seen s : order) {
            out.add(new TaskCpu.Subtask(s.subtask.chain(), s.subtask.index(), s.subtask.parallelism(), s.cpu));
        }
        return new TaskCpu(out);
    }

    /** CPU time the sampler's own thread used (valid after {@link #stop}). */
    long ownCpuNanos() {
        return ownCpuNanos;
    }

    private void pollUntilStopped() {
        try {
            while (!stopped) {
                poll();
                Thread.sleep(INTERVAL_MILLIS);
            }
            poll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ownCpuNanos = THREADS.getCurrentThreadCpuTime();
        }
    }

    private void poll() {
        if (group == null) {
            group = findGroup();
            if (group == null) {
                return;
            }
        }
        int k = enumerate();
        for (int i = 0; i < k; i++) {
            Thread t = buffer[i];
            long id = t.getId();
            Seen s = seen.get(id);
            if (s == null) {
                if (seen.containsKey(id) || earlier.contains(id)) {
                    continue;
                }
                TaskCpu.Subtask parsed = TaskCpu.parse(t.getName());
                if (parsed == null) {
                    seen.put(id, null);
                    continue;
                }
                s = new Seen(parsed, id);
                seen.put(id, s);
                order.add(s);
            }
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu > s.cpu) {
                s.cpu = cpu;
            }
        }
        java.util.Arrays.fill(buffer, 0, k, null);
    }

    /** The live threads of the task group into {@link #buffer}; their count. */
    private int enumerate() {
        while (true) {
            int k = group.enumerate(buffer, false);
            if (k < buffer.length) {
                return k;
            }
            buffer = new Thread[buffer.length * 2];
        }
    }

    /** Flink's task thread group, or null if no task has been created in this JVM yet. */
    private static ThreadGroup findGroup() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        ThreadGroup[] groups = new ThreadGroup[Math.max(16, root.activeGroupCount() * 2)];
        int k = root.enumerate(groups, true);
        for (int i = 0; i < k; i++) {
            if (groups[i].getName().equals(TASK_GROUP_NAME)) {
                return groups[i];
            }
        }
        return null;
    }
}
