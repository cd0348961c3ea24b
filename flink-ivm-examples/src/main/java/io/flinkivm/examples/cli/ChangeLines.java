package io.flinkivm.examples.cli;

import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.csv.Csv;
import io.flinkivm.sql.translate.RejectedRowException;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * The input file of {@code run}: one change per line, {@code [kind,]relation,value1,...,valueK,payload}
 * (with {@code --sql}, {@code table,value1,...,valueK}), where kind is {@code +I}, {@code -D}, {@code -U}
 * or {@code +U}. Malformed lines are rejected with their reason; deletes are checked against the live rows
 * ({@link LiveRowCheck}, the in-memory engine's own check) before they reach the run.
 */
final class ChangeLines {

    /** The longest input line, in bytes. */
    static final int MAX_LINE_BYTES = 1024 * 1024;

    private final Path input;
    /** The translation of --sql, or null for --query. */
    private final SqlTranslation sql;
    /** With --sql, the lines' table rows, known once {@link #changelogInputs} has read the input. */
    private SqlRowLines sqlRows;

    /** What Flink computes for the rows of tables with computed columns ({@link #withFlinkExpressions}), or null. */
    private FlinkExpressions.Values computed;

    ChangeLines(Path input, SqlTranslation sql) {
        this.input = input;
        this.sql = sql;
    }

    /**
     * With --sql on Flink: the expressions Flink computes ({@link FlinkExpressions}) are computed for the rows of
     * the input (collected while {@link #changelogInputs} reads it) by an embedded local Flink before the first
     * {@link #read}, and set in each row read.
     */
    ChangeLines withFlinkExpressions() {
        if (sql != null && !sql.computedColumns().isEmpty()) {
            computed = new FlinkExpressions.Values();
        }
        return this;
    }

    /**
     * Where an accepted change goes: the in-memory engine, or the list of records for the Flink job.
     */
    @FunctionalInterface
    interface ChangeSink<T> {
        void change(ChangeKind kind, String relation, Tuple tuple, T payload, long lineNumber)
                throws RejectedLineException;

        /**
         * With --sql: a row of {@code relation} that the query's filter dropped, for the key stage that keeps
         * a mark of it (only for the relations {@link ChangeLines#read} names as marked).
         */
        default void dropped(ChangeKind kind, String relation, Tuple tuple, long lineNumber)
                throws RejectedLineException {}
    }

    /**
     * The relations of {@code query} whose rows the input deletes or updates: those named on a {@code -D} or
     * {@code -U} line with as many values as the relation's arity (with --sql: the relations of a table named
     * on such a line with as many values as the table's columns), found by reading the input once before
     * the run (malformed lines are rejected later, when they are read again).
     */
    Inputs changelogInputs(ConjunctiveQuery query) {
        TreeSet<String> relations = new TreeSet<>();
        TreeSet<String> tables = new TreeSet<>();
        Csv csv = Csv.forFileLines();
        List<String> fields = new ArrayList<>();
        try (Utf8LineReader reader = new Utf8LineReader(open(input), MAX_LINE_BYTES)) {
            while (reader.next()) {
                String text = reader.text();
                if (reader.isComment() || text == null) {
                    continue;
                }
                if (computed != null) {
                    addComputed(text, csv, fields);
                }
                if (!(text.startsWith("-D,") || text.startsWith("-U,"))) {
                    continue;
                }
                try {
                    csv.split(text, fields, RejectedLineException::new);
                } catch (RejectedLineException e) {
                    continue;
                }
                // Only a well-formed line counts: kind, relation, its values and the payload (a table's row).
                if (fields.size() <= 1) {
                    continue;
                }
                TableInput table = sql == null ? null : SqlRowLines.changedTable(sql, fields);
                if (table != null) {
                    tables.add(table.name());
                    relations.addAll(table.relations());
                } else if (sql == null && fields.size() == query.arityOf(fields.get(1)) + 3) {
                    relations.add(fields.get(1));
                }
            }
        } catch (IOException e) {
            throw CliException.failure("cannot read input file " + input + ": " + CliException.describe(e), e);
        }
        if (sql != null) {
            sqlRows = new SqlRowLines(sql, tables, computed);
        }
        return Inputs.changelog(relations);
    }

    /**
     * Records a line's row for Flink to compute its table's computed columns; a line that is no row of such a
     * table, or whose values do not parse, is left alone (it is rejected when it is read again).
     */
    private void addComputed(String text, Csv csv, List<String> fields) {
        try {
            csv.split(text, fields, RejectedLineException::new);
        } catch (RejectedLineException e) {
            return;
        }
        int first = !fields.isEmpty() && ChangeKind.of(fields.get(0)) != null ? 1 : 0;
        TableInput table = fields.size() > first ? sql.table(fields.get(first)) : null;
        if (table == null || table.computedColumns().isEmpty()) {
            return;
        }
        try {
            computed.add(table, table.fromText(fields.subList(first + 1, fields.size())));
        } catch (RejectedRowException e) {
            // Rejected, with its reason, when the line is read for the run.
        }
    }

    /**
     * Reads the input and passes every well-formed line to {@code sink}, then the number of lines accepted
     * so far to {@code accepted}; returns the number of accepted lines.
     */
    <T> long read(Semiring<T> s, ConjunctiveQuery query, Rejects rejects, ChangeSink<T> sink, LongConsumer accepted) {
        return read(s, query, rejects, sink, accepted, Set.of());
    }

    /**
     * As {@link #read(Semiring, ConjunctiveQuery, Rejects, ChangeSink, LongConsumer)}; with --sql, a row that
     * makes no insert of a relation in {@code marked} (whose key stage rows look up) goes to {@code sink} as
     * dropped.
     */
    <T> long read(
            Semiring<T> s,
            ConjunctiveQuery query,
            Rejects rejects,
            ChangeSink<T> sink,
            LongConsumer accepted,
            Set<String> marked) {
        if (sql != null && sqlRows == null) {
            throw new IllegalStateException("the input's changelog tables are read first (changelogInputs)");
        }
        if (computed != null) {
            computed.compute();
        }
        try (Utf8LineReader reader = new Utf8LineReader(open(input), MAX_LINE_BYTES)) {
            return load(reader, sink, accepted, s, query, rejects, marked);
        } catch (IOException e) {
            throw CliException.failure("cannot read input file " + input + ": " + CliException.describe(e), e);
        }
    }

    /** Applies every well-formed line of the input; returns the number of accepted inserts. */
    private <T> long load(
            Utf8LineReader reader,
            ChangeSink<T> sink,
            LongConsumer acceptedSoFar,
            Semiring<T> s,
            ConjunctiveQuery query,
            Rejects rejects,
            Set<String> marked)
            throws IOException {
        // IOException here comes from reading the input; Rejects reports its own write errors.
        Map<String, Integer> arities = new HashMap<>();
        for (String r : query.relations()) {
            arities.put(r, query.arityOf(r));
        }
        Csv csv = Csv.forFileLines();
        List<String> fields = new ArrayList<>();
        long accepted = 0;
        while (reader.next()) {
            if (reader.isComment()) {
                continue;
            }
            String text = reader.text();
            if (text == null) {
                rejects.reject(reader.lineNumber(), reader.error(), reader.rawText());
                continue;
            }
            if (text.isBlank()) {
                continue;
            }
            try {
                csv.split(text, fields, RejectedLineException::new);
                ChangeKind kind = fields.isEmpty() ? null : ChangeKind.of(fields.get(0));
                if (kind == null) {
                    kind = ChangeKind.INSERT;
                } else {
                    fields.remove(0);
                }
                if (sql == null) {
                    insert(kind, fields, arities, query, sink, s, reader.lineNumber());
                } else {
                    sqlRows.change(kind, fields, sink, s, reader.lineNumber(), marked);
                }
                accepted++;
                acceptedSoFar.accept(accepted);
            } catch (RejectedLineException e) {
                rejects.reject(reader.lineNumber(), e.getMessage(), text);
            }
        }
        return accepted;
    }

    private static <T> void insert(
            ChangeKind kind,
            List<String> fields,
            Map<String, Integer> arities,
            ConjunctiveQuery query,
            ChangeSink<T> sink,
            Semiring<T> s,
            long lineNumber)
            throws RejectedLineException {
        if (fields.size() < 2) {
            throw new RejectedLineException("expected relation,value1,...,valueK,payload but the line has "
                    + (fields.size() == 1 ? "one field" : "no field")
                    + (kind == ChangeKind.INSERT ? "" : " after " + kind.shortString()));
        }
        String relation = fields.get(0);
        Integer arity = arities.get(relation);
        if (arity == null) {
            throw new RejectedLineException(
                    "unknown relation '" + relation + "'; the query uses " + String.join(", ", query.relations()));
        }
        int values = fields.size() - 2;
        if (values != arity) {
            throw new RejectedLineException("wrong arity: relation " + relation + " has arity " + arity
                    + " in the query, but the line has " + values + " value" + (values == 1 ? "" : "s")
                    + " before the payload");
        }
        T payload;
        try {
            payload = s.parse(fields.get(fields.size() - 1));
        } catch (IllegalArgumentException e) {
            throw new RejectedLineException("unparsable " + s.name() + " payload: " + e.getMessage());
        }
        Object[] tuple = new Object[values];
        for (int i = 0; i < values; i++) {
            tuple[i] = fields.get(i + 1);
        }
        sink.change(kind, relation, Tuple.wrap(tuple), payload, lineNumber);
    }

    static <T> void apply(IvmEngine<T> ivm, ChangeKind kind, String relation, Tuple tuple, T payload)
            throws RejectedLineException {
        try {
            ivm.apply(kind, relation, tuple, payload);
        } catch (ArithmeticException e) {
            // Every in-memory engine rolls a failed change back completely (EngineAtomicityTest).
            throw overflow(kind, e);
        } catch (IllegalArgumentException e) {
            // Also a delete of a row that is not there (AbsentRowException): it changed nothing.
            throw new RejectedLineException(e.getMessage());
        }
    }

    /** A dropped row to the in-memory engine, for its key stage's mark; a row that breaks a key is rejected. */
    static <T> void filtered(IvmEngine<T> ivm, ChangeKind kind, String relation, Tuple tuple)
            throws RejectedLineException {
        try {
            ivm.filtered(relation, tuple, kind.isRetraction());
        } catch (IllegalArgumentException e) {
            throw new RejectedLineException(e.getMessage());
        }
    }

    /** The rejection of a change whose payload overflowed before anything changed. */
    static RejectedLineException overflow(ChangeKind kind, ArithmeticException e) {
        String what = kind.isRetraction() ? "delete" : "insert";
        return new RejectedLineException("payload overflow: " + e.getMessage() + "; the " + what
                + " was rejected and rolled back: no view holds any of it");
    }

    /** The text of the input lines that Flink rejected, read again (only those lines are kept). */
    Map<Long, String> originalLines(List<FlinkRun.Rejected> rejected) {
        TreeSet<Long> wanted = new TreeSet<>();
        for (FlinkRun.Rejected r : rejected) {
            if (r.line() > 0) {
                wanted.add(r.line());
            }
        }
        Map<Long, String> texts = new HashMap<>();
        if (wanted.isEmpty()) {
            return texts;
        }
        try (Utf8LineReader reader = new Utf8LineReader(open(input), MAX_LINE_BYTES)) {
            while (!wanted.isEmpty() && reader.next()) {
                if (wanted.remove(reader.lineNumber())) {
                    texts.put(reader.lineNumber(), reader.rawText());
                }
            }
        } catch (IOException e) {
            throw CliException.failure("cannot read input file " + input + " again: " + CliException.describe(e), e);
        }
        return texts;
    }

    private static InputStream open(Path path) {
        try {
            return Files.newInputStream(path);
        } catch (IOException e) {
            throw CliException.failure("cannot read input file " + path + ": " + CliException.describe(e), e);
        }
    }

    /** Where the Flink job's changes go: to {@code run}, a delete once checked against the live rows. */
    static <T> ChangeSink<T> checked(Semiring<T> s, MaintenancePlan plan, FlinkRun<T> run) {
        LiveRowCheck<T> check = LiveRowCheck.of(s, plan.inputs());
        return new ChangeSink<>() {
            @Override
            public void change(ChangeKind kind, String relation, Tuple tuple, T payload, long line)
                    throws RejectedLineException {
                if (check != null) {
                    check.check(kind, relation, tuple, payload);
                }
                run.add(kind, relation, tuple, payload, line);
            }

            @Override
            public void dropped(ChangeKind kind, String relation, Tuple tuple, long line) {
                run.addDropped(kind, relation, tuple, line);
            }
        };
    }

    /** The relations of {@code plan} whose key stages rows look up: their dropped rows go there as marks. */
    static Set<String> marked(MaintenancePlan plan) {
        Set<String> out = new HashSet<>();
        if (plan instanceof KeyedPlan keyed) {
            for (String r : keyed.query().relations()) {
                if (keyed.stage(r) >= 0 && keyed.isLookedUp(r)) {
                    out.add(r);
                }
            }
        }
        return out;
    }
}
