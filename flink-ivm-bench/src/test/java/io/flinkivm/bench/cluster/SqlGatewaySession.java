package io.flinkivm.bench.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A session of the SQL Gateway's REST API (v3), used as the SQL Client uses it: each statement is submitted as
 * typed ({@code POST /sessions/:s/statements}) and its result fetched page by page as JSON rows with their
 * change kinds until the end; a statement that fails answers the fetch with the server's error, whose last
 * {@code Caused by:} is what the SQL Client prints as the reason ({@link Outcome#error()}).
 */
final class SqlGatewaySession implements AutoCloseable {

    private static final Duration STATEMENT_TIMEOUT = Duration.ofMinutes(3);

    /**
     * A statement's outcome: its rows, each with its kind ({@code INSERT}, {@code UPDATE_BEFORE}, {@code
     * UPDATE_AFTER}, {@code DELETE}) and its fields as JSON text, or the error.
     */
    record Outcome(List<String> columns, List<Change> rows, String error) {
        /** The fields of the rows, for a statement whose rows are all inserts (DDL, SHOW, CALL). */
        List<List<String>> values() {
            if (error != null) {
                throw new AssertionError("the statement failed: " + error);
            }
            List<List<String>> out = new ArrayList<>();
            for (Change c : rows) {
                out.add(c.fields());
            }
            return out;
        }

        /** The single value of a one-row, one-column result, as text. */
        String single() {
            List<List<String>> v = values();
            if (v.size() != 1 || v.get(0).size() != 1) {
                throw new AssertionError("expected one value, got " + v);
            }
            return unquote(v.get(0).get(0));
        }
    }

    /** A row of a result with its change kind. */
    record Change(String kind, List<String> fields) {}

    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Decimals read as sent (40.50 stays 40.50), never through a double. */
    private final ObjectMapper json = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private final String handle;

    SqlGatewaySession(URI gateway) throws IOException {
        this.base = gateway.resolve("/v3/sessions");
        ObjectNode body = json.createObjectNode();
        body.putObject("properties");
        this.handle = send("POST", base.toString(), body.toString())
                .body()
                .path("sessionHandle")
                .asText();
        if (handle.isEmpty()) {
            throw new IOException("the SQL Gateway opened no session");
        }
    }

    /** Runs {@code statement} to its end (every page of its result) and returns its outcome. */
    Outcome execute(String statement) throws IOException, InterruptedException {
        return run(statement, null);
    }

    /**
     * Runs an unbounded query until the table its changelog makes up ({@link #materialize}) satisfies {@code done},
     * then closes it (which cancels its job), as a user who watched the SQL Client's table view would.
     *
     * @throws AssertionError if the table does not get there within the statement timeout
     */
    Outcome watch(String statement, Predicate<Map<List<String>, Integer>> done)
            throws IOException, InterruptedException {
        return run(statement, done);
    }

    private Outcome run(String statement, Predicate<Map<List<String>, Integer>> done)
            throws IOException, InterruptedException {
        ObjectNode body = json.createObjectNode();
        body.put("statement", statement);
        String operation = send("POST", base + "/" + handle + "/statements", body.toString())
                .body()
                .path("operationHandle")
                .asText();
        String opBase = base + "/" + handle + "/operations/" + operation;
        List<String> columns = new ArrayList<>();
        List<Change> rows = new ArrayList<>();
        String next = opBase + "/result/0?rowFormat=JSON";
        long deadline = System.nanoTime() + STATEMENT_TIMEOUT.toNanos();
        try {
            while (next != null) {
                Answer a = send("GET", next, null);
                if (a.status() / 100 != 2) {
                    return new Outcome(columns, rows, rootCause(a.body()));
                }
                JsonNode r = a.body();
                String type = r.path("resultType").asText();
                if (columns.isEmpty()) {
                    for (JsonNode c : r.path("results").path("columns")) {
                        columns.add(c.path("name").asText());
                    }
                }
                for (JsonNode d : r.path("results").path("data")) {
                    List<String> fields = new ArrayList<>();
                    d.path("fields").forEach(f -> fields.add(f.toString()));
                    rows.add(new Change(d.path("kind").asText(), fields));
                }
                if (done != null && done.test(materialize(rows))) {
                    return new Outcome(columns, rows, null);
                }
                if (type.equals("EOS")) {
                    if (done != null) {
                        throw new AssertionError("the query " + statement + " ended before its table was as expected: "
                                + materialize(rows));
                    }
                    return new Outcome(columns, rows, null);
                }
                JsonNode uri = r.path("nextResultUri");
                next = uri.isMissingNode() || uri.isNull() ? null : base.resolve(uri.asText()) + "";
                if (type.equals("NOT_READY") || r.path("results").path("data").isEmpty()) {
                    Thread.sleep(200);
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the statement did not end within " + STATEMENT_TIMEOUT + ": " + statement
                            + (done == null ? "" : "; its table: " + materialize(rows)));
                }
            }
            return new Outcome(columns, rows, null);
        } finally {
            if (done != null) {
                send("DELETE", opBase + "/close", null);
            }
        }
    }

    /** The table a changelog makes up: each row with the number of times it is in it (inserts minus retractions). */
    static Map<List<String>, Integer> materialize(List<Change> changes) {
        Map<List<String>, Integer> out = new HashMap<>();
        for (Change c : changes) {
            int delta = switch (c.kind()) {
                case "INSERT", "UPDATE_AFTER" -> 1;
                case "UPDATE_BEFORE", "DELETE" -> -1;
                default -> throw new AssertionError("unknown change kind " + c.kind());
            };
            out.merge(c.fields(), delta, Integer::sum);
        }
        out.values().removeIf(n -> n == 0);
        return out;
    }

    /**
     * The last {@code Caused by:} of the server's error, all its lines up to the stack trace: what the SQL Client
     * prints as the reason.
     */
    static String rootCause(JsonNode error) {
        String text = error.path("errors").path(error.path("errors").size() - 1).asText();
        int at = text.lastIndexOf("Caused by: ");
        if (at < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder();
        for (String line : text.substring(at + "Caused by: ".length()).split("\n")) {
            if (line.startsWith("\tat ") || line.startsWith("\t... ")) {
                break;
            }
            out.append(out.length() == 0 ? "" : "\n").append(line);
        }
        return out.toString();
    }

    static String unquote(String jsonText) {
        return jsonText.length() >= 2 && jsonText.startsWith("\"") && jsonText.endsWith("\"")
                ? jsonText.substring(1, jsonText.length() - 1)
                : jsonText;
    }

    @Override
    public void close() throws IOException {
        send("DELETE", base + "/" + handle, null);
    }

    private record Answer(int status, JsonNode body) {}

    private Answer send(String method, String uri, String body) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofMinutes(1));
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode parsed = r.body().isEmpty() ? json.createObjectNode() : json.readTree(r.body());
            if (r.statusCode() / 100 != 2 && !uri.contains("/result/")) {
                throw new IOException(method + " " + uri + " answered " + r.statusCode() + ": " + r.body());
            }
            return new Answer(r.statusCode(), parsed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + method + " " + uri, e);
        }
    }
}
