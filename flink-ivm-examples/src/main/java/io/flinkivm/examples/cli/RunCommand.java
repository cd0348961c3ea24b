package io.flinkivm.examples.cli;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code run}: maintains a query over a CSV file of inserts and writes the final result as CSV. */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        sortOptions = false,
        header = "Maintains a query over a CSV file of inserts and writes the result as CSV.",
        description = {"Maintains a query under the inserts of a CSV file, one insert at a time, and writes the"
                + " result at the end. Malformed input lines are reported, optionally written to a dead-letter"
                + " file, and skipped; the other lines are applied. On stdout the run closes with"
                + " 'inserts: N, rejected: M' (N accepted inserts, M rejected lines), the result size and the time."},
        footerHeading = "%nFile formats:%n",
        footer = {
            "  Input (--input): UTF-8 text, one insert per line:",
            "      relation,value1,...,valueK,payload",
            "    relation is a relation of the query and K its arity there; values are text (a constant in the"
                    + " query matches a value with the same text); the payload is in the semiring's text form:"
                    + " natural 3, boolean true/false (or 1/0), min-plus 2.5 or inf, max-plus 2.5 or -inf,"
                    + " viterbi 0.25, provenance 2*x*y + z, covariance:<m> c;s1 ... sm;q11 ... qmm (or a bare"
                    + " feature vector x1 ... xm). Payloads of a repeated tuple are added.",
            "    Fields follow RFC 4180: a field in double quotes may contain commas, and \"\" stands for a quote"
                    + " inside it; a quoted field cannot span lines. Blank lines and lines starting with # are"
                    + " skipped. A line is rejected if it is not valid UTF-8, is longer than 1 MiB, has a field"
                    + " longer than 64 KiB, bad quoting, an unknown relation, the wrong number of values, a"
                    + " payload that does not parse, or a payload that overflows (natural numbers have 64 bits).",
            "  Output (--output): a header line with the query's free variables and payload, then one line per"
                    + " result tuple in no particular order, fields quoted as above where needed. Written"
                    + " to a temporary file and moved into place at the end.",
            "  Dead letter (--dead-letter): one line per rejected input line, no header:"
                    + " line_number,reason,original text (CSV-quoted; bytes that are not UTF-8 appear as U+FFFD).",
            "",
            "Exit codes:",
            "  0  the result was written (also when some lines were rejected)",
            "  1  I/O error (input, output or dead-letter file) or a result payload overflow",
            "  2  bad option, malformed query, unknown semiring or engine, unsupported plan"})
final class RunCommand implements Callable<Integer> {

    /** The longest input line, in bytes. */
    static final int MAX_LINE_BYTES = 1024 * 1024;

    @Spec
    CommandSpec spec;

    @Mixin
    QueryOptions queryOptions;

    @Option(names = "--semiring", paramLabel = "SEMIRING", required = true,
            converter = Converters.SemiringConverter.class,
            description = {"The payload semiring: natural, boolean, min-plus, max-plus, viterbi, provenance or"
                    + " covariance:<m> (m features)."})
    Semiring<?> semiring;

    @Option(names = "--input", paramLabel = "IN.csv", required = true,
            description = {"The inserts, one per line: relation,value1,...,valueK,payload (see File formats)."})
    Path input;

    @Option(names = "--output", paramLabel = "OUT.csv", required = true,
            description = {"Where the result goes: the free variables and payload, one line per result tuple."})
    Path output;

    @Option(names = "--dead-letter", paramLabel = "DL.csv",
            description = {"Where rejected lines go, as line_number,reason,original text. Without it they are"
                    + " reported on stderr (the first " + Rejects.MAX_REPORTED + ") and counted only."})
    Path deadLetter;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "memory",
            converter = Converters.EngineConverter.class,
            description = {"The runtime that maintains the result: memory (the in-memory engine of"
                    + " flink-ivm-core, single-threaded). Default: ${DEFAULT-VALUE}."})
    EngineKind engine;

    @Override
    public Integer call() {
        ConjunctiveQuery query = queryOptions.parse();
        MaintenancePlan plan = queryOptions.plan(query, semiring);
        return execute(semiring, plan);
    }

    private <T> int execute(Semiring<T> s, MaintenancePlan plan) {
        long start = System.nanoTime();
        IvmEngine<T> ivm = switch (engine) {
            case MEMORY -> Engines.create(plan, s);
        };
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (Files.isDirectory(output)) {
            throw CliException.failure("cannot write output file " + output + ": it is a directory", null);
        }
        Path temporary = createTemporaryOutput();
        try {
            long accepted;
            long rejected;
            try (Utf8LineReader reader = new Utf8LineReader(open(input), MAX_LINE_BYTES);
                    Rejects rejects = new Rejects(err, deadLetter)) {
                accepted = load(reader, ivm, s, plan.query(), rejects);
                rejected = rejects.count();
                rejects.printTotal();
            } catch (IOException e) {
                throw CliException.failure("cannot read input file " + input + ": " + describe(e), e);
            }
            out.println("inserts: " + accepted + ", rejected: " + rejected);
            out.flush();
            long results = writeResult(ivm, s, plan.query(), temporary);
            long millis = (System.nanoTime() - start) / 1_000_000;
            out.println("result: " + results + " tuple" + (results == 1 ? "" : "s") + " written to " + output
                    + ", time: " + millis + " ms");
            out.flush();
            return 0;
        } finally {
            deleteQuietly(temporary);
        }
    }

    /** Applies every well-formed line of the input; returns the number of accepted inserts. */
    private <T> long load(Utf8LineReader reader, IvmEngine<T> ivm, Semiring<T> s, ConjunctiveQuery query,
            Rejects rejects) throws IOException {
        // IOException here comes from reading the input; Rejects reports its own write errors.
        Map<String, Integer> arities = new HashMap<>();
        for (String r : query.relations()) {
            arities.put(r, query.arityOf(r));
        }
        Csv csv = new Csv();
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
                csv.split(text, fields);
                insert(fields, arities, query, ivm, s);
                accepted++;
            } catch (RejectedLineException e) {
                rejects.reject(reader.lineNumber(), e.getMessage(), text);
            }
        }
        return accepted;
    }

    private static <T> void insert(List<String> fields, Map<String, Integer> arities, ConjunctiveQuery query,
            IvmEngine<T> ivm, Semiring<T> s) throws RejectedLineException {
        if (fields.size() < 2) {
            throw new RejectedLineException("expected relation,value1,...,valueK,payload but the line has one field");
        }
        String relation = fields.get(0);
        Integer arity = arities.get(relation);
        if (arity == null) {
            throw new RejectedLineException("unknown relation '" + relation + "'; the query uses "
                    + String.join(", ", query.relations()));
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
        try {
            ivm.insert(relation, Tuple.wrap(tuple), payload);
        } catch (ArithmeticException e) {
            throw new RejectedLineException("payload overflow: " + e.getMessage()
                    + "; the insert was rejected, but views it reached before the overflow may include it");
        } catch (IllegalArgumentException e) {
            throw new RejectedLineException(e.getMessage());
        }
    }

    /**
     * Writes the result to {@code temporary} and moves it onto the output; returns the number of tuples.
     * On failure the caller deletes {@code temporary}, so no partial output appears.
     */
    private <T> long writeResult(IvmEngine<T> ivm, Semiring<T> s, ConjunctiveQuery query, Path temporary) {
        long count = 0;
        try {
            try (Writer w = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                StringBuilder sb = new StringBuilder();
                for (String v : query.head()) {
                    Csv.appendField(sb, v).append(',');
                }
                w.append(sb.append("payload\n"));
                Iterator<ResultTuple<T>> it = ivm.enumerate();
                while (it.hasNext()) {
                    ResultTuple<T> r = it.next();
                    sb.setLength(0);
                    Tuple t = r.tuple();
                    for (int i = 0; i < t.arity(); i++) {
                        Csv.appendField(sb, String.valueOf(t.get(i))).append(',');
                    }
                    Csv.appendField(sb, s.format(r.payload())).append('\n');
                    w.append(sb);
                    count++;
                }
            }
            moveIntoPlace(temporary);
        } catch (IOException e) {
            throw CliException.failure("cannot write output file " + output + ": " + describe(e), e);
        } catch (ArithmeticException e) {
            throw CliException.failure("a result payload overflowed while the result was enumerated ("
                    + e.getMessage() + "); no output was written", e);
        }
        return count;
    }

    private static InputStream open(Path path) {
        try {
            return Files.newInputStream(path);
        } catch (IOException e) {
            throw CliException.failure("cannot read input file " + path + ": " + describe(e), e);
        }
    }

    private Path createTemporaryOutput() {
        Path absolute = output.toAbsolutePath();
        if (!Files.isDirectory(absolute.getParent())) {
            throw CliException.failure("cannot write output file " + output + ": directory " + absolute.getParent()
                    + " does not exist", null);
        }
        try {
            return Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".tmp");
        } catch (IOException e) {
            throw CliException.failure("cannot write output file " + output + ": " + describe(e), e);
        }
    }

    private void moveIntoPlace(Path temporary) throws IOException {
        try {
            Files.move(temporary, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, output, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // The temporary file stays behind; the command fails for the reason given to the user.
        }
    }

    /** A short reason for an I/O error, e.g. "no such file or directory". */
    static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
