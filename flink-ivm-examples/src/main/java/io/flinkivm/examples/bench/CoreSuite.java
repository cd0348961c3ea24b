package io.flinkivm.examples.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * "Core II": nanoseconds per insert of the core engines, the p-hierarchical plan against the fallback
 * delta joins, on the same streams, at growing n; the median of several runs after warm-up; the
 * fallback is stopped at its cap.
 */
final class CoreSuite implements Suite {
    static final List<Integer> SIZES = List.of(10_000, 100_000, 1_000_000);
    static final List<Integer> QUICK_SIZES = List.of(10_000, 100_000);
    static final Duration WARM_UP = Duration.ofSeconds(2);
    static final int WARM_UP_SIZE = 10_000;

    private final Workload workload;
    private final List<CoreEngineSystem> systems;

    CoreSuite(Workload workload, List<CoreEngineSystem> systems) {
        this.workload = workload;
        this.systems = List.copyOf(systems);
    }

    static CoreSuite defaults() {
        return new CoreSuite(new Example10Workload(), List.of(CoreEngineSystem.pHierarchical(), CoreEngineSystem.fallback()));
    }

    @Override
    public String name() {
        return "core";
    }

    @Override
    public List<Measurement> run(Harness harness, BenchSettings settings) throws Exception {
        PrintWriter out = harness.out();
        List<Integer> sizes = settings.sizesOr(SIZES, QUICK_SIZES);
        out.println("== suite core (Core II): ns per insert of the core engines, " + workload.name() + " "
                + workload.query());
        out.println("   stream: " + workload.describe(sizes.get(sizes.size() - 1)) + "; seed " + settings.seed());
        for (SystemUnderTest s : systems) {
            out.println("   " + s.describe(workload));
        }
        out.println("   median of " + settings.coreReps() + " runs after " + (settings.warmUp() ? "a " + WARM_UP.toSeconds()
                + " s warm-up per system" : "no warm-up") + "; a run is stopped at " + settings.coreCap().toSeconds()
                + " s and reported as a bound");
        out.flush();
        if (settings.warmUp()) {
            InsertStream warm = workload.generate(Math.min(WARM_UP_SIZE, sizes.get(0)), Distribution.UNIFORM, settings.seed() + 1);
            for (SystemUnderTest s : systems) {
                harness.warmUp(s, workload, warm, WARM_UP, 50, settings.coreCap());
            }
        }
        List<Measurement> mine = new ArrayList<>();
        for (Distribution d : settings.distributions()) {
            for (int n : sizes) {
                InsertStream stream = workload.generate(n, d, settings.seed());
                RunResult agreed = null;
                String agreedBy = null;
                for (SystemUnderTest s : systems) {
                    Harness.Outcome o = harness.measure(s, workload, stream, settings.coreReps(), settings.coreCap());
                    RunResult r = o.last();
                    if (r.completed()) {
                        if (agreed == null) {
                            agreed = r;
                            agreedBy = s.name();
                        } else if (agreed.resultSize() != r.resultSize() || agreed.checksum() != r.checksum()) {
                            throw new BenchFailure(workload.name() + " " + d.label() + " n=" + n + ": " + s.name()
                                    + " ends with " + r.resultSize() + " result tuples (payload sum " + r.checksum() + "), "
                                    + agreedBy + " with " + agreed.resultSize() + " (payload sum " + agreed.checksum() + ")");
                        }
                    }
                    Measurement m = o.measurement();
                    if (r.completed()) {
                        m = m.withNote((m.note().isEmpty() ? "" : m.note() + "; ") + r.resultSize() + " result tuples");
                    }
                    harness.record(m);
                    mine.add(m);
                }
            }
        }
        summary(out, mine, sizes);
        return mine;
    }

    private void summary(PrintWriter out, List<Measurement> ms, List<Integer> sizes) {
        out.println();
        out.println("Core II — " + workload.name() + ", ns per insert (median wall time; cpu: this thread's CPU time plus GC"
                + " time), state in entries:");
        Report.table(out, ms);
        for (int i = 1; i < systems.size(); i++) {
            Report.ratios(out, ms, systems.get(i).name(), systems.get(0).name(), Report.Metric.NS_PER_INSERT);
        }
        if (sizes.size() > 1) {
            out.println("flatness (ns per insert at n=" + sizes.get(sizes.size() - 1) + " ÷ at n=" + sizes.get(0) + "):");
            for (SystemUnderTest s : systems) {
                Report.flatness(out, ms, s.name());
            }
        }
        out.println();
        out.flush();
    }
}
