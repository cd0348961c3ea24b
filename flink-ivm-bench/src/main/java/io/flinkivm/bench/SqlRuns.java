package io.flinkivm.bench;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.sql.translate.SqlTranslation;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Flink suite's runs of one {@link SqlDataset}: every {@link SqlSystem} at every parallelism and
 * size on the same stream, timed and checked as the suite's workloads are (the first completed result on
 * a stream is the reference: its size and checksum; a system that disagrees aborts the bench), flink-ivm
 * with twice its peers' cap where its plan is the p-hierarchical one, a system stopped at its cap not
 * run at larger sizes; then the same tables and ratio lines.
 */
final class SqlRuns {
    private SqlRuns() {}

    static List<Measurement> run(
            Harness harness, BenchSettings settings, SqlDataset dataset, List<SqlSystem> systems, boolean warmUp)
            throws Exception {
        PrintWriter out = harness.out();
        List<SqlSystem> mine =
                systems.stream().filter(s -> settings.runsSystem(s.name())).toList();
        if (mine.isEmpty()) {
            return List.of();
        }
        List<Integer> sizes = settings.sizesOr(FlinkSuite.SIZES, FlinkSuite.QUICK_SIZES);
        List<Integer> ps = settings.parallelisms();
        SqlTranslation translation = dataset.translation();
        MaintenancePlan plan = Planner.plan(translation.query(), translation.semiring());
        boolean subject = plan instanceof PHierarchicalPlan;
        out.println("== suite flink (Flink operators): inserts per second, SQL dataset " + dataset.name());
        out.println("   query: " + dataset.sql().replaceAll("\\s+", " "));
        out.println("   flink-ivm's plan: " + guarantee(plan.explain()));
        out.println("   stream: " + dataset.describe(sizes.get(sizes.size() - 1)) + "; seed " + settings.seed());
        for (SqlSystem s : mine) {
            out.println("   " + s.describe(settings.sqlTriggerEvery()));
        }
        printPlans(out, dataset, mine, settings.seed());
        FlinkSuite.printJobs(out, settings);
        out.println("   every system sees the same stream at each size; a run is cancelled at "
                + settings.flinkCap().toSeconds() + " s"
                + (subject
                        ? " (flink-ivm: "
                                + settings.flinkCap()
                                        .multipliedBy(FlinkSuite.IVM_CAP_FACTOR)
                                        .toSeconds() + " s)"
                        : "")
                + " and then reported as a bound; " + settings.flinkReps() + " timed run"
                + (settings.flinkReps() == 1 ? "" : "s (median)") + " per system, P and size"
                + (settings.warmUp() && warmUp ? ", after one warm-up run per system and P" : ""));
        out.flush();
        if (settings.warmUp() && warmUp) {
            SqlStream warm = dataset.generate(FlinkSuite.warmUpSize(settings, sizes), settings.seed() + 1);
            for (SqlSystem s : mine) {
                for (int p : ps) {
                    s.run(dataset, warm, settings.flinkCap(), p, settings.sqlTriggerEvery());
                }
            }
        }
        List<Measurement> ms = new ArrayList<>();
        CapSkips skips = new CapSkips();
        for (int n : sizes) {
            SqlStream stream = dataset.generate(n, settings.seed());
            String key = dataset.name() + "|" + n + "|" + settings.seed();
            String described = dataset.name() + " " + stream.label() + " n=" + n;
            for (SqlSystem system : mine) {
                for (int p : ps) {
                    String label = system.label(p);
                    if (skips.skips(label, dataset.name() + " " + stream.label(), n, out)) {
                        continue;
                    }
                    Duration cap = system.isIvm() && subject
                            ? settings.flinkCap().multipliedBy(FlinkSuite.IVM_CAP_FACTOR)
                            : settings.flinkCap();
                    Harness.Outcome o = harness.measure(
                            dataset.name(),
                            system.name(),
                            stream.label(),
                            n,
                            settings.flinkReps(),
                            null,
                            cap,
                            () -> system.run(dataset, stream, cap, p, settings.sqlTriggerEvery()));
                    skips.record(label, n, o.last());
                    Measurement m = o.measurement();
                    RunResult r = o.last();
                    Harness.Reference ref = harness.check(key, described, label, r);
                    if (ref != null) {
                        m = m.withNote(m.note() + "; result = " + ref.system() + " (" + r.resultSize() + " rows)");
                    } else if (r.completed()) {
                        m = m.withNote(m.note() + "; result: " + r.resultSize() + " rows (the reference)");
                    }
                    harness.record(m);
                    harness.recordState(m, r.state());
                    ms.add(m);
                }
            }
        }
        List<String> ivm =
                mine.stream().filter(SqlSystem::isIvm).map(SqlSystem::name).toList();
        List<String> peers =
                mine.stream().filter(s -> !s.isIvm()).map(SqlSystem::name).toList();
        FlinkSuite.summary(out, dataset.name(), ms, ivm, peers, ps);
        harness.plot();
        return ms;
    }

    /**
     * The plan each system runs, once per kind of plan (flink-ivm, Flink SQL, Flink SQL with mini-batch),
     * planned over the tables of the first {@value FlinkSqlSystem#REPORT_SAMPLE} rows of the stream.
     */
    static void printPlans(PrintWriter out, SqlDataset dataset, List<SqlSystem> systems, long seed) {
        Map<String, List<SqlSystem>> kinds = new LinkedHashMap<>();
        for (SqlSystem s : systems) {
            kinds.computeIfAbsent(s.planKind(), k -> new ArrayList<>()).add(s);
        }
        SqlStream sample = dataset.generate(FlinkSqlSystem.REPORT_SAMPLE, seed);
        for (List<SqlSystem> same : kinds.values()) {
            out.println("   plan of "
                    + String.join(", ", same.stream().map(SqlSystem::name).toList()) + ":");
            for (String line : same.get(0).plan(dataset, sample)) {
                out.println("     " + line);
            }
        }
        out.flush();
    }

    /** The plan's line "Plan: ..." and its guarantee, from its explain text. */
    static String guarantee(String explain) {
        List<String> lines = new ArrayList<>();
        for (String line : explain.split("\n")) {
            if (line.startsWith("Plan: ") || line.startsWith("Guarantee: ")) {
                lines.add(line);
            }
        }
        return String.join("; ", lines);
    }
}
