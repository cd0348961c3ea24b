package io.flinkivm.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/**
 * A small client of Flink's REST API (the one the web UI uses): JSON in and out, and the jar upload of the web
 * UI's "Submit New Job". Every answer other than 2xx is an {@link IOException} that carries Flink's error text.
 */
public final class FlinkRest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();

    /** @param base e.g. {@code http://127.0.0.1:8081} */
    public FlinkRest(URI base) {
        this.base = base;
    }

    /** The base address, e.g. {@code http://127.0.0.1:8081}. */
    public URI base() {
        return base;
    }

    /** {@code GET path}, e.g. {@code /overview}. */
    public JsonNode get(String path) throws IOException {
        return send(request(path).GET());
    }

    /** {@code GET path}, or null if Flink answers it with other than 2xx (e.g. statistics not there yet). */
    public JsonNode getIfPresent(String path) throws IOException {
        HttpResponse<String> response = exchange(request(path).GET());
        return response.statusCode() / 100 == 2 ? parse(response) : null;
    }

    /** {@code POST path} with a JSON body. */
    public JsonNode post(String path, String body) throws IOException {
        return send(request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** {@code PATCH path} without a body (e.g. {@code /jobs/:id?mode=cancel}). */
    public JsonNode patch(String path) throws IOException {
        return send(request(path).method("PATCH", HttpRequest.BodyPublishers.noBody()));
    }

    /** Uploads a jar as the web UI does ({@code POST /jars/upload}) and returns its id for {@code /jars/:id/run}. */
    public String uploadJar(Path jar) throws IOException {
        String boundary = "flink-ivm-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + boundary + "\r\n"
                        + "Content-Disposition: form-data; name=\"jarfile\"; filename=\"" + jar.getFileName() + "\"\r\n"
                        + "Content-Type: application/x-java-archive\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.writeBytes(Files.readAllBytes(jar));
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        JsonNode answer = send(request("/jars/upload")
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
        String file = answer.path("filename").asText();
        if (file.isEmpty()) {
            throw new IOException("the jar upload answered without a file name: " + answer);
        }
        return Path.of(file).getFileName().toString();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT);
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException {
        HttpResponse<String> response = exchange(request);
        if (response.statusCode() / 100 != 2) {
            HttpRequest r = response.request();
            throw new IOException(
                    r.method() + " " + r.uri() + " answered " + response.statusCode() + ": " + response.body());
        }
        return parse(response);
    }

    private HttpResponse<String> exchange(HttpRequest.Builder request) throws IOException {
        HttpRequest r = request.build();
        try {
            return http.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + r.method() + " " + r.uri(), e);
        }
    }

    private JsonNode parse(HttpResponse<String> response) throws IOException {
        return response.body().isEmpty() ? json.createObjectNode() : json.readTree(response.body());
    }
}
