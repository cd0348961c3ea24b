package io.flinkivm.flink;

import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.Windows;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * Windowed test streams for the MiniCluster tests ({@link WindowsITCase}, {@link
 * WindowsSavepointRescaleITCase}): bids (with auctions or sellers when the query has them) whose times
 * run out of order within {@link #BOUND} and sometimes far behind; a punctuated watermark of the
 * largest time so far - {@code BOUND} - 1 after every row; and the {@link Oracle} that decides, row by
 * row with that watermark, what the ingest decides.
 */
final class WindowedStreams {
    private WindowedStreams() {}

    /** How far a row's time may trail the largest time before it without being late, in milliseconds. */
    static final long BOUND = 5;

    /**
     * {@code n} rows for {@code query}: {@code bid(A,T)} alone, or mixed with {@code auction(A,S,T)}
     * (when the query has it) or, in the first 40 rows, {@code seller(A,S)}. Times start at 1000 ms
     * and grow by 0 to 2 ms a row.
     */
    static List<Insert<Long>> generate(ConjunctiveQuery query, Random random, int n) {
        List<Insert<Long>> rows = new ArrayList<>();
        long clock = 1000;
        for (int i = 0; i < n; i++) {
            clock += random.nextInt(3);
            // Mostly within the bound, sometimes (one row in ten) up to four bounds behind.
            long t =
                    clock - (random.nextInt(10) == 0 ? random.nextInt((int) (4 * BOUND)) : random.nextInt((int) BOUND));
            long a = random.nextInt(6);
            int which = query.relations().size() == 1 ? 0 : random.nextInt(3);
            if (which == 0) {
                rows.add(new Insert<>("bid", Tuple.of(a, t), 1L + random.nextInt(5)));
            } else if (query.relations().contains("auction")) {
                rows.add(new Insert<>("auction", Tuple.of(a, 100L + a, t), 1L));
            } else if (i < 40) {
                rows.add(new Insert<>("seller", Tuple.of(a, 100L + a % 3), 1L));
            }
        }
        return rows;
    }

    /**
     * The result of a query over windowed relations, fed row by row: a row's time is checked against
     * the watermark before it (the largest time before it - {@link #BOUND} - 1), a late row is only
     * counted, another goes into its windows that are still open. Over natural numbers.
     */
    static final class Oracle {
        private final ConjunctiveQuery query;
        private final Windows windows;
        private final Map<String, Map<Tuple, Long>> database = new HashMap<>();
        private final List<Integer> late = new ArrayList<>();
        /** By start (milliseconds), every window that holds a row. */
        private final Map<Long, Held> held = new TreeMap<>();

        private long watermark = Long.MIN_VALUE;
        private long largest = Long.MIN_VALUE;
        private int rows;

        Oracle(ConjunctiveQuery query, Windows windows) {
            this.query = query;
            this.windows = windows;
        }

        /** Feeds the rows in order. */
        Oracle addAll(List<Insert<Long>> stream) {
            stream.forEach(this::add);
            return this;
        }

        /** Feeds the next row. */
        void add(Insert<Long> r) {
            rows++;
            WindowAssignment w = windows.of(r.relation());
            Map<Tuple, Long> relation = database.computeIfAbsent(r.relation(), x -> new HashMap<>());
            if (w == null) {
                relation.merge(r.tuple(), r.payload(), Long::sum);
                return;
            }
            long t = w.millis(r.tuple());
            if (w.isLate(t, watermark)) {
                late.add(rows);
            } else {
                long[] starts = new long[w.spec().maxWindows()];
                long[] windowEnds = new long[w.spec().maxWindows()];
                int n = w.spec().assign(t, starts, windowEnds);
                for (int i = 0; i < n; i++) {
                    if (w.isOpen(windowEnds[i], watermark)) {
                        relation.merge(w.withWindow(r.tuple(), starts[i], windowEnds[i]), r.payload(), Long::sum);
                        held.put(starts[i], new Held(windowEnds[i], w));
                    }
                }
            }
            largest = Math.max(largest, t);
            watermark = largest - BOUND - 1;
        }

        /** The naive evaluator's result over the rows so far. */
        Map<Tuple, Long> result() {
            return NaiveEvaluator.evaluate(query, NaturalSemiring.INSTANCE, database);
        }

        /** The tuples of relation {@code name} (with their windows, for a windowed one) over the rows so far. */
        Map<Tuple, Long> relation(String name) {
            return database.getOrDefault(name, Map.of());
        }

        /** The watermark after the rows so far. */
        long watermark() {
            return watermark;
        }

        /** The positions (from 1) of the late rows so far. */
        List<Integer> late() {
            return List.copyOf(late);
        }

        /** The starts (milliseconds) of the windows that hold a row and are still open at the watermark. */
        List<Long> openWindowStarts() {
            List<Long> out = new ArrayList<>();
            held.forEach((start, h) -> {
                if (h.assignment().isOpen(h.end(), watermark)) {
                    out.add(start);
                }
            });
            return out;
        }
    }

    /** A window's end (milliseconds) and the assignment of the relation whose row it holds. */
    private record Held(long end, WindowAssignment assignment) {}

    /** A watermark after every row: the largest time so far - BOUND - 1 (deterministic, unlike periodic ones). */
    static WatermarkStrategy<InputRecord<Long>> punctuated(IvmOptions options) {
        Map<String, Integer> timeColumns = new HashMap<>();
        options.windows().assignments().forEach(w -> timeColumns.put(w.relation(), w.timeColumn()));
        return WatermarkStrategy.<InputRecord<Long>>forGenerator(c -> new PerRow())
                .withTimestampAssigner((r, previous) -> timeColumns.containsKey(r.relation())
                        ? (Long) r.tuple().get(timeColumns.get(r.relation()))
                        : previous);
    }

    /** Emits the largest timestamp so far - BOUND - 1 after each row. */
    static final class PerRow implements WatermarkGenerator<InputRecord<Long>> {
        private long largest = Long.MIN_VALUE;

        @Override
        public void onEvent(InputRecord<Long> event, long timestamp, WatermarkOutput output) {
            if (timestamp != Long.MIN_VALUE && timestamp > largest) {
                largest = timestamp;
                output.emitWatermark(new Watermark(largest - BOUND - 1));
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {}
    }
}
