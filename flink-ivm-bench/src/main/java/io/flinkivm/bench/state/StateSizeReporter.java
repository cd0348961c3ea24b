package io.flinkivm.bench.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.View;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.metrics.reporter.Scheduled;

/**
 * A metric reporter of the bench's MiniCluster (or the soak's local Flink) that keeps the latest value
 * of RocksDB's native size gauges ({@code state.backend.rocksdb.metrics.*}: estimated keys, live SST
 * data, all SST files, all memtables) per job, operator, subtask and column family (one column family
 * per state name). The gauges cache what RocksDB said at their last update; the reporter updates and
 * reads them every {@value #INTERVAL_MILLIS} ms and once more when a gauge is removed at the end of its
 * task, so the figures after a job are the state at its end. Public only because Flink loads reporters
 * by their factory's class name.
 */
public final class StateSizeReporter implements MetricReporter, Scheduled {
    public static final String NAME = "ivmbench";
    static final long INTERVAL_MILLIS = 100;

    /** RocksDB's estimate of the keys of a column family (it counts overwritten and deleted ones until compaction). */
    public static final String KEYS = "estimate-num-keys";
    /** RocksDB's estimate of the live data in a column family's SST files. */
    public static final String LIVE = "estimate-live-data-size";
    /** The bytes of a column family's SST files. */
    public static final String SST = "total-sst-files-size";
    /** The bytes of a column family's memtables (their arenas: a small memtable counts its whole block). */
    public static final String MEMTABLES = "size-all-mem-tables";
    /** The RocksDB properties that are enabled and kept. */
    public static final List<String> PROPERTIES = List.of(KEYS, LIVE, SST, MEMTABLES);

    private static final Map<Gauge<?>, Reading> GAUGES = new ConcurrentHashMap<>();
    private static final Map<String, Map<Reading, Long>> FINAL = new ConcurrentHashMap<>();

    /** Where a gauge's value belongs: a property of one column family of one operator's subtask. */
    private record Reading(String job, String operator, String subtask, String columnFamily, String property) {}

    /**
     * One column family (a state) of one operator, summed over the operator's subtasks.
     *
     * @param operator the operator's name
     * @param state the column family: the state's name
     * @param values the properties' sums, by property name ({@link #PROPERTIES})
     */
    public record ColumnFamily(String operator, String state, Map<String, Long> values) {
        public long get(String property) {
            return values.getOrDefault(property, -1L);
        }
    }

    /** The configuration that installs the reporter and enables the RocksDB gauges it reads. */
    public static void configure(org.apache.flink.configuration.Configuration c) {
        c.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
        c.setString("metrics.reporter." + NAME + ".interval", INTERVAL_MILLIS + " ms");
        for (String p : PROPERTIES) {
            c.setString("state.backend.rocksdb.metrics." + p, "true");
        }
        c.setString("state.backend.rocksdb.metrics.column-family-as-variable", "true");
    }

    /**
     * The sum over a job's gauges (all operators and column families) of each property, by property
     * name; empty if the job had none (heap state, or the reporter is not installed).
     */
    public static Map<String, Long> totals(String job) {
        Map<String, Long> out = new TreeMap<>();
        for (Map.Entry<Reading, Long> e : FINAL.getOrDefault(job, Map.of()).entrySet()) {
            out.merge(e.getKey().property(), e.getValue(), Long::sum);
        }
        return out;
    }

    /** A job's column families by operator and state, each summed over the subtasks, in name order. */
    public static List<ColumnFamily> columnFamilies(String job) {
        Map<String, Map<String, Long>> sums = new TreeMap<>();
        Map<String, String[]> names = new TreeMap<>();
        for (Map.Entry<Reading, Long> e : FINAL.getOrDefault(job, Map.of()).entrySet()) {
            Reading r = e.getKey();
            String key = r.operator() + "\u0000" + r.columnFamily();
            names.putIfAbsent(key, new String[] {r.operator(), r.columnFamily()});
            sums.computeIfAbsent(key, k -> new TreeMap<>()).merge(r.property(), e.getValue(), Long::sum);
        }
        List<ColumnFamily> out = new ArrayList<>();
        sums.forEach((key, values) -> out.add(new ColumnFamily(names.get(key)[0], names.get(key)[1], values)));
        return out;
    }

    /**
     * Reads every gauge of {@code job} now (RocksDB answers from its current state): call it after a
     * checkpoint flushed the memtables, while the job still runs, so that the figures kept are the
     * ones after the flush and not a reading from before it.
     */
    public static void refresh(String job) {
        for (Map.Entry<Gauge<?>, Reading> e : GAUGES.entrySet()) {
            if (e.getValue().job().equals(job)) {
                store(e.getKey());
            }
        }
    }

    /** Forgets a job's readings. */
    public static void forget(String job) {
        FINAL.remove(job);
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        String property = property(metricName);
        if (property != null && metric instanceof Gauge<?> g) {
            Map<String, String> v = group.getAllVariables();
            GAUGES.put(
                    g,
                    new Reading(
                            v.getOrDefault("<job_name>", ""),
                            v.getOrDefault("<operator_name>", v.getOrDefault("<task_name>", "")),
                            v.getOrDefault("<subtask_index>", ""),
                            v.getOrDefault("<column_family>", ""),
                            property));
            store(g);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        if (metric instanceof Gauge<?> g && GAUGES.containsKey(g)) {
            store(g);
            GAUGES.remove(g);
        }
    }

    @Override
    public void report() {
        for (Gauge<?> g : GAUGES.keySet()) {
            store(g);
        }
    }

    private static void store(Gauge<?> g) {
        Reading r = GAUGES.get(g);
        if (r != null) {
            FINAL.computeIfAbsent(r.job(), k -> new ConcurrentHashMap<>()).put(r, read(g));
        }
    }

    private static long read(Gauge<?> g) {
        if (g instanceof View v) {
            v.update();
        }
        Object value = g.getValue();
        return value instanceof Number n ? n.longValue() : 0;
    }

    private static String property(String metricName) {
        for (String p : PROPERTIES) {
            if (metricName.endsWith(p)) {
                return p;
            }
        }
        return null;
    }

    /** Flink's way of creating the reporter (listed in META-INF/services). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new StateSizeReporter();
        }
    }
}
