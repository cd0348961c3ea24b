package io.flinkivm.bench.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A metric reporter that keeps what Flink's keyed-state tracking measured per job, operator and state
 * name: with {@link #track} the keyed state accesses of every operator (flink-ivm's and Flink SQL's
 * alike) are counted by kind ({@code mapStateGet}, {@code valueStateUpdate}, ...) with its latency (the
 * whole call: serialization, the backend's lookup or write, deserialization) and the serialized size
 * of its key (the current key and the map's user key) and value. Every second access of a kind is
 * sampled, so a count is exact to one; latencies and sizes are means over the last {@value #HISTORY} accesses of a kind. Public
 * only because Flink loads reporters by their factory's class name.
 */
public final class StateCallReporter implements MetricReporter {
    public static final String NAME = "ivmcalls";
    /** The accesses each mean is taken over (Flink keeps a window of this many per histogram). */
    static final int HISTORY = 10_000;
    /**
     * Every second access of a kind is sampled: Flink's tracking never samples with an interval of 1
     * (its counter wraps to 0 before it reaches 1), so counts are the samples times this.
     */
    static final int SAMPLE_INTERVAL = 2;

    /** {@code mapStateGetLatency} → (map, Get, Latency). */
    private static final Pattern METRIC =
            Pattern.compile("(map|value|list|reducing|aggregating)State(\\w+?)(Latency|KeySize|ValueSize)");

    private static final Map<Histogram, Reading> HISTOGRAMS = new ConcurrentHashMap<>();
    private static final Map<String, Map<Reading, Stats>> FINAL = new ConcurrentHashMap<>();

    private record Reading(String job, String operator, String subtask, String state, String call, String measure) {}

    private record Stats(long count, double mean) {}

    /**
     * The accesses of one kind to one state of one operator, summed over its subtasks.
     *
     * @param call the kind, as Flink names it: {@code mapStateGet}, {@code mapStatePut}, {@code
     *     mapStateIteratorInit}, {@code valueStateUpdate}, ...
     * @param count how many
     * @param nanos mean latency of one call (ns)
     * @param keyBytes mean serialized key of one call (the current key and the user key), or 0
     * @param valueBytes mean serialized value of one call, or 0
     */
    public record Calls(
            String operator, String state, String call, long count, double nanos, double keyBytes, double valueBytes) {

        /** A point read: get, contains. */
        public boolean isRead() {
            return call.endsWith("Get") || call.endsWith("Contains");
        }

        /** A write: put, update, add, remove, clear. */
        public boolean isWrite() {
            return call.endsWith("Put")
                    || call.endsWith("PutAll")
                    || call.endsWith("Update")
                    || call.endsWith("Add")
                    || call.endsWith("AddAll")
                    || call.endsWith("Remove")
                    || call.endsWith("Clear");
        }

        /** An iterator's start or an emptiness check: a seek in RocksDB. */
        public boolean isSeek() {
            return call.endsWith("Init") || call.endsWith("IsEmpty");
        }
    }

    /** Installs the reporter (on the cluster's configuration). */
    public static void configure(Configuration c) {
        c.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
    }

    /**
     * Turns on Flink's latency and size tracking of every keyed state access: on the cluster's
     * configuration (state backends read it there, not from a job's).
     */
    public static void track(Configuration c) {
        for (String kind : List.of("latency", "size")) {
            c.setString("state." + kind + "-track.keyed-state-enabled", "true");
            c.setString("state." + kind + "-track.sample-interval", Integer.toString(SAMPLE_INTERVAL));
            c.setString("state." + kind + "-track.history-size", Integer.toString(HISTORY));
            c.setString("state." + kind + "-track.state-name-as-variable", "true");
        }
    }

    /**
     * Reads every histogram of {@code job} now: call it when the job has processed its input and before
     * its tasks end (they remove their metrics when they do).
     */
    public static void refresh(String job) {
        for (Map.Entry<Histogram, Reading> e : HISTOGRAMS.entrySet()) {
            if (e.getValue().job().equals(job)) {
                store(e.getKey());
            }
        }
    }

    /** A job's state calls by operator, state and kind (summed over subtasks), and forgets them. */
    public static List<Calls> take(String job) {
        Map<String, Map<String, Stats>> sums = new TreeMap<>();
        for (Map.Entry<Reading, Stats> e : FINAL.getOrDefault(job, Map.of()).entrySet()) {
            Reading r = e.getKey();
            String key = r.operator() + "\u0000" + r.state() + "\u0000" + r.call();
            sums.computeIfAbsent(key, k -> new TreeMap<>()).merge(r.measure(), e.getValue(), StateCallReporter::merge);
        }
        FINAL.remove(job);
        List<Calls> out = new ArrayList<>();
        sums.forEach((key, byMeasure) -> {
            String[] parts = key.split("\u0000");
            Stats latency = byMeasure.getOrDefault("Latency", new Stats(0, 0));
            Stats keys = byMeasure.getOrDefault("KeySize", new Stats(0, 0));
            Stats values = byMeasure.getOrDefault("ValueSize", new Stats(0, 0));
            long count = Math.max(latency.count(), Math.max(keys.count(), values.count()));
            if (count > 0) {
                out.add(new Calls(parts[0], parts[1], parts[2], count, latency.mean(), keys.mean(), values.mean()));
            }
        });
        return out;
    }

    private static Stats merge(Stats a, Stats b) {
        long n = a.count() + b.count();
        return n == 0 ? a : new Stats(n, (a.mean() * a.count() + b.mean() * b.count()) / n);
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        Map<String, String> v = group.getAllVariables();
        String state = v.get("<state_name>");
        Matcher m = METRIC.matcher(metricName);
        if (state != null && metric instanceof Histogram h && m.matches()) {
            HISTOGRAMS.put(
                    h,
                    new Reading(
                            v.getOrDefault("<job_name>", ""),
                            v.getOrDefault("<operator_name>", v.getOrDefault("<task_name>", "")),
                            v.getOrDefault("<subtask_index>", ""),
                            state,
                            m.group(1) + "State" + m.group(2),
                            m.group(3)));
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        if (metric instanceof Histogram h && HISTOGRAMS.containsKey(h)) {
            store(h);
            HISTOGRAMS.remove(h);
        }
    }

    private static void store(Histogram h) {
        Reading r = HISTOGRAMS.get(h);
        if (r != null && h.getCount() > 0) {
            FINAL.computeIfAbsent(r.job(), k -> new ConcurrentHashMap<>())
                    .put(
                            r,
                            new Stats(
                                    h.getCount() * SAMPLE_INTERVAL,
                                    h.getStatistics().getMean()));
        }
    }

    /** Flink's way of creating the reporter (listed in META-INF/services). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new StateCallReporter();
        }
    }
}
