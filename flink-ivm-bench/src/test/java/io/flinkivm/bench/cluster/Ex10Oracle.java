package io.flinkivm.bench.cluster;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.examples.csv.Csv;
import io.flinkivm.examples.jobs.Ex10Job;
import io.flinkivm.examples.jobs.GeneratorSettings;
import io.flinkivm.examples.jobs.InsertGenerator;
import io.flinkivm.examples.report.ResultChecksum;
import io.flinkivm.examples.report.RowFormat;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The paper's Ex. 10 as the cluster tests feed it: the {@code example ex10} generator's inserts, and the result
 * of flink-ivm-core's in-memory engine over them (checked against the naive evaluator in core's tests), as a map,
 * as CSV lines and as a {@link ResultChecksum}.
 */
final class Ex10Oracle {
    static final String QUERY = Ex10Job.QUERY;
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;

    private final IvmEngine<Long> engine = Engines.create(Planner.plan(QueryParser.parse(QUERY), K), K);

    /** Inserts 0 .. n-1 of {@code example ex10 --inserts n --seed seed}. */
    static List<InputRecord<Long>> inserts(long n, long seed) {
        InsertGenerator<Long> g = new Ex10Job().generator(new GeneratorSettings(n, 0, seed));
        List<InputRecord<Long>> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(g.record(i));
        }
        return out;
    }

    /** An insert as a line of {@code run}'s input and of the kafka command's CSV records: relation,values,payload. */
    static String csv(InputRecord<Long> r) {
        List<String> fields = new ArrayList<>();
        fields.add(r.relation());
        fields.addAll(RowFormat.fields(r.tuple(), K.format(r.payload())));
        return Csv.line(fields);
    }

    /** The in-memory engine's result over {@code inserts}. */
    static Map<Tuple, String> result(List<InputRecord<Long>> inserts) {
        Ex10Oracle o = new Ex10Oracle();
        o.insert(inserts);
        return o.result();
    }

    void insert(List<InputRecord<Long>> inserts) {
        for (InputRecord<Long> r : inserts) {
            engine.insert(r.relation(), r.tuple(), r.payload());
        }
    }

    /** The result so far, payloads as text. */
    Map<Tuple, String> result() {
        Map<Tuple, String> out = new HashMap<>();
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
            ResultTuple<Long> t = it.next();
            out.put(t.tuple(), K.format(t.payload()));
        }
        return out;
    }

    /** The CSV lines of a result (values, then payload), as {@code run} and the result files write them. */
    static List<String> lines(Map<Tuple, String> result) {
        List<String> out = new ArrayList<>();
        result.forEach((t, payload) -> out.add(Csv.line(RowFormat.fields(t, payload))));
        return out;
    }

    static ResultChecksum checksum(Map<Tuple, String> result) {
        ResultChecksum c = new ResultChecksum();
        result.forEach(c::add);
        return c;
    }
}
