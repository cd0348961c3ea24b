package io.flinkivm.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;

/**
 * CPU time, next to wall time, so that figures from a busy machine can be read: wall time grows with
 * other processes' load, CPU time much less. For the single-threaded core engines: this thread's CPU
 * time plus the JVM's garbage-collection time; for Flink jobs, which use many threads: the process's
 * CPU time. -1 where the JVM does not report it.
 */
final class CpuClock {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuClock() {}

    /** This thread's CPU time plus the collectors' accumulated collection time, in ns; -1 if unknown. */
    static long threadAndGc() {
        if (!THREADS.isCurrentThreadCpuTimeSupported()) {
            return -1;
        }
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        return THREADS.getCurrentThreadCpuTime() + gcMillis * 1_000_000;
    }

    /** The whole process's CPU time in ns; -1 if unknown. */
    static long process() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /** {@code end - start}, or -1 if either is unknown. */
    static long between(long start, long end) {
        return start < 0 || end < 0 ? -1 : end - start;
    }
}
