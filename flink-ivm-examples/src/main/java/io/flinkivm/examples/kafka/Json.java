package io.flinkivm.examples.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The flat JSON of flink-ivm's Kafka records, read and written with Jackson's streaming API: one object
 * whose fields are strings, numbers, booleans, null, or arrays of those. Jackson checks the syntax
 * (strict RFC 8259: no comments, single quotes, leading zeros, NaN or trailing commas) and refuses a
 * field that appears twice ({@link StreamReadFeature#STRICT_DUPLICATE_DETECTION}); this class refuses
 * nested objects and arrays, anything after the object, and strings with half a surrogate pair.
 */
final class Json {

    /** Thread-safe once configured; shared by every parser and generator of the process. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    /** Reads nested JSON (Debezium's change events) as strictly; decimals keep their digits (1.50 stays 1.50). */
    private static final ObjectReader TREE_READER = JsonMapper.builder(FACTORY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build()
            .reader();
    /** Jackson's reference to where an object or the text started: the record is at hand, the reference only noise. */
    private static final Pattern SOURCE_REFERENCE =
            Pattern.compile("\\s*\\((?:start marker|for root starting) at \\[Source: [^\\]]*\\]\\)");

    private Json() {}

    /** A JSON number, kept as its literal text (a value 1.50 or 1e3 stays as written). */
    record Number(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** Text that is not flat JSON; the message says where, counting characters from 1, and what was expected. */
    static final class FormatException extends Exception {
        private static final long serialVersionUID = 1L;

        FormatException(long offset, String what) {
            // No stack trace: bad input is data, not a bug, and may come in every record.
            super("bad JSON at character " + (offset + 1) + ": " + what, null, false, false);
        }
    }

    /** Writes the fields of one object. */
    @FunctionalInterface
    interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    /**
     * Parses one flat object. Values are {@link String}, {@link Number}, {@link Boolean}, null, or a
     * {@link List} of those; fields keep their order.
     *
     * @throws FormatException for bad JSON, a duplicate field, nesting deeper than an array, or text after the object
     */
    static Map<String, Object> parseObject(String text) throws FormatException {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken t;
            try {
                t = p.nextToken();
            } catch (JsonProcessingException e) {
                t = null; // not JSON from the first token on, e.g. a CSV record on a JSON topic
            }
            if (t != JsonToken.START_OBJECT) {
                long at =
                        t == null ? nonSpace(text, 0) : p.currentTokenLocation().getCharOffset();
                throw new FormatException(at, "expected a JSON object starting with '{'");
            }
            Map<String, Object> fields = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                fields.put(name, value(p, p.nextToken(), name, true));
            }
            // Jackson reads the root value only: what follows its '}' is checked here.
            int after = nonSpace(text, (int) p.currentLocation().getCharOffset());
            if (after < text.length()) {
                throw new FormatException(after, "unexpected text after the closing '}'");
            }
            return fields;
        } catch (JsonProcessingException e) {
            String what = SOURCE_REFERENCE.matcher(e.getOriginalMessage()).replaceAll("");
            throw new FormatException(
                    e.getLocation() == null ? 0 : e.getLocation().getCharOffset(), what);
        } catch (IOException e) {
            throw new UncheckedIOException("reading JSON from a string", e);
        }
    }

    /**
     * Parses one JSON object with nesting (a Debezium change event), as strictly as {@link #parseObject}.
     *
     * @throws FormatException for bad JSON, a duplicate field, text after the object, or a value that is no object
     */
    static ObjectNode parseTree(String text) throws FormatException {
        JsonNode node;
        try {
            node = TREE_READER.readTree(text);
        } catch (JsonProcessingException e) {
            String what = SOURCE_REFERENCE.matcher(e.getOriginalMessage()).replaceAll("");
            throw new FormatException(
                    e.getLocation() == null ? 0 : e.getLocation().getCharOffset(), what);
        } catch (IOException e) {
            throw new UncheckedIOException("reading JSON from a string", e);
        }
        if (!(node instanceof ObjectNode object)) {
            throw new FormatException(nonSpace(text, 0), "expected a JSON object starting with '{'");
        }
        return object;
    }

    private static Object value(JsonParser p, JsonToken t, String field, boolean arrayAllowed)
            throws IOException, FormatException {
        switch (t) {
            case VALUE_STRING:
                return string(p, field);
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return new Number(p.getText());
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            case START_OBJECT:
                throw new FormatException(
                        p.currentTokenLocation().getCharOffset(),
                        "field \"" + field
                                + "\" holds an object; only strings, numbers, booleans, null and arrays of them are allowed");
            case START_ARRAY:
                if (!arrayAllowed) {
                    throw new FormatException(
                            p.currentTokenLocation().getCharOffset(),
                            "field \"" + field
                                    + "\" holds nested arrays; an array may hold only strings, numbers, booleans and null");
                }
                List<Object> out = new ArrayList<>();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    out.add(value(p, e, field, false));
                }
                return out;
            default:
                throw new IllegalStateException("Jackson gave " + t + " where a value belongs");
        }
    }

    /** The string, unless a \\u escape left half a surrogate pair in it (Jackson lets those through). */
    private static String string(JsonParser p, String field) throws IOException, FormatException {
        String s = p.getText();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new FormatException(
                        p.currentTokenLocation().getCharOffset(),
                        "a string of field \"" + field
                                + "\" has a lone surrogate (a \\u escape of half a UTF-16 surrogate pair)");
            }
        }
        return s;
    }

    /** The index of the first character at or after {@code from} that is not JSON white space. */
    private static int nonSpace(String text, int from) {
        int i = from;
        while (i < text.length()
                && (text.charAt(i) == ' '
                        || text.charAt(i) == '\t'
                        || text.charAt(i) == '\n'
                        || text.charAt(i) == '\r')) {
            i++;
        }
        return i;
    }

    /** One object's JSON text: {@code {}} around what {@code fields} writes. */
    static String object(Fields fields) {
        StringWriter out = new StringWriter(128);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to a string", e);
        }
        return out.toString();
    }

    /** A JSON array of strings. */
    static String stringArray(List<String> values) {
        StringWriter out = new StringWriter(64);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartArray();
            for (String v : values) {
                g.writeString(v);
            }
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to a string", e);
        }
        return out.toString();
    }
}
