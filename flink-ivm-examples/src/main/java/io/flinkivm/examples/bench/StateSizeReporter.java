package io.flinkivm.examples.bench;

import java.util.Map;
import java.util.Properties;
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
 * A metric reporter of the bench's MiniCluster that keeps the latest value of RocksDB's native size
 * gauges ({@code state.backend.rocksdb.metrics.*}: estimated keys, live SST data, all SST files, all
 * memtables), per job and per gauge. The gauges cache what RocksDB said at their last update; the
 * reporter updates and reads them every {@value #INTERVAL_MILLIS} ms and once more when a gauge is
 * removed at the end of its task, so the sums after a job are the state at (or within that interval
 * of) its end. Public only because Flink loads reporters by their factory's class name.
 */
public final class StateSizeReporter implements MetricReporter, Scheduled {
    static final String NAME = "ivmbench";
    static final long INTERVAL_MILLIS = 100;
    /** The RocksDB properties that are enabled and summed. */
    static final String[] PROPERTIES = {
        "estimate-num-keys", "estimate-live-data-size", "total-sst-files-size", "size-all-mem-tables"
    };

    private static final Map<Gauge<?>, Reading> GAUGES = new ConcurrentHashMap<>();
    private static final Map<String, Map<String, Long>> FINAL = new ConcurrentHashMap<>();

    private record Reading(String job, String property, String id) {}

    /** The configuration that installs the reporter and enables the RocksDB gauges it reads. */
    static void configure(org.apache.flink.configuration.Configuration c) {
        c.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
        c.setString("metrics.reporter." + NAME + ".interval", INTERVAL_MILLIS + " ms");
        for (String p : PROPERTIES) {
            c.setString("state.backend.rocksdb.metrics." + p, "true");
        }
    }

    /**
     * The sum over a job's gauges (all operators and column families) of each property, by property
     * name; empty if the job had none (heap state, or the reporter is not installed).
     */
    static Map<String, Long> totals(String job) {
        Map<String, Long> perGauge = FINAL.getOrDefault(job, Map.of());
        Map<String, Long> out = new java.util.TreeMap<>();
        for (Map.Entry<String, Long> e : perGauge.entrySet()) {
            out.merge(e.getKey().substring(0, e.getKey().indexOf('|')), e.getValue(), Long::sum);
        }
        return out;
    }

    /** Forgets a job's readings. */
    static void forget(String job) {
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
            String job = group.getAllVariables().getOrDefault("<job_name>", "");
            GAUGES.put(g, new Reading(job, property, group.getMetricIdentifier(metricName)));
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
            FINAL.computeIfAbsent(r.job(), k -> new ConcurrentHashMap<>()).put(r.property() + "|" + r.id(), read(g));
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
