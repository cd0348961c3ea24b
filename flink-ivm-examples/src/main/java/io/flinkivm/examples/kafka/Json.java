package io.flinkivm.examples.kafka;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flat JSON of flink-ivm's Kafka records: one object whose fields are strings, numbers, booleans,
 * null, or arrays of those. Nested objects and nested arrays are refused, as is anything after the
 * object. A reader of its own keeps the fat jar free of a JSON library for a format this small.
 */
final class Json {

    private Json() {
    }

    /** A JSON number, kept as its literal text (a value "007" or 1e3 stays as written). */
    record Number(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** Text that is not flat JSON; the message says where, counting characters from 1. */
    static final class FormatException extends Exception {
        private static final long serialVersionUID = 1L;

        FormatException(String message) {
            // No stack trace: bad input is data, not a bug, and may come in every record.
            super(message, null, false, false);
        }
    }

    /**
     * Parses one flat object. Values are {@link String}, {@link Number}, {@link Boolean}, null, or a
     * {@link List} of those; fields keep their order.
     *
     * @throws FormatException for bad JSON, a duplicate field, or nesting deeper than an array
     */
    static Map<String, Object> parseObject(String text) throws FormatException {
        return new Reader(text).object();
    }

    /** Appends {@code value} as a JSON string literal. */
    static StringBuilder appendString(StringBuilder sb, String value) {
        sb.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }

    /** Appends {@code "name":} (with a comma before it unless it is the first field). */
    static StringBuilder appendName(StringBuilder sb, String name) {
        if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '{') {
            sb.append(',');
        }
        return appendString(sb, name).append(':');
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static final class Reader {
        private final String s;
        private int i;

        Reader(String s) {
            this.s = s;
        }

        Map<String, Object> object() throws FormatException {
            skipSpace();
            expect('{', "a JSON object starting with '{'");
            Map<String, Object> fields = new LinkedHashMap<>();
            skipSpace();
            if (peek() == '}') {
                i++;
            } else {
                while (true) {
                    skipSpace();
                    int at = i;
                    if (peek() != '"') {
                        throw error("expected a field name in double quotes");
                    }
                    String name = string();
                    skipSpace();
                    expect(':', "':' after field name \"" + name + "\"");
                    skipSpace();
                    Object value = value(name, true);
                    if (fields.containsKey(name)) {
                        throw new FormatException("bad JSON at character " + (at + 1) + ": field \"" + name
                                + "\" appears twice");
                    }
                    fields.put(name, value);
                    skipSpace();
                    if (peek() == ',') {
                        i++;
                    } else if (peek() == '}') {
                        i++;
                        break;
                    } else {
                        throw error("expected ',' or '}' after the value of field \"" + name + "\"");
                    }
                }
            }
            skipSpace();
            if (i < s.length()) {
                throw error("unexpected text after the closing '}'");
            }
            return fields;
        }

        private Object value(String field, boolean arrayAllowed) throws FormatException {
            char c = peek();
            switch (c) {
                case '"':
                    return string();
                case '{':
                    throw error("field \"" + field + "\" holds an object; only strings, numbers, booleans, null"
                            + " and arrays of them are allowed");
                case '[':
                    if (!arrayAllowed) {
                        throw error("field \"" + field + "\" holds nested arrays; an array may hold only strings,"
                                + " numbers, booleans and null");
                    }
                    return array(field);
                case 't':
                    word("true");
                    return Boolean.TRUE;
                case 'f':
                    word("false");
                    return Boolean.FALSE;
                case 'n':
                    word("null");
                    return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error(i == s.length() ? "the text ends where a value was expected"
                            : "expected a value (string, number, true, false, null or array)");
            }
        }

        private List<Object> array(String field) throws FormatException {
            i++;
            List<Object> out = new ArrayList<>();
            skipSpace();
            if (peek() == ']') {
                i++;
                return out;
            }
            while (true) {
                skipSpace();
                out.add(value(field, false));
                skipSpace();
                if (peek() == ',') {
                    i++;
                } else if (peek() == ']') {
                    i++;
                    return out;
                } else {
                    throw error("expected ',' or ']' in the array of field \"" + field + "\"");
                }
            }
        }

        private String string() throws FormatException {
            int open = i++;
            StringBuilder sb = null;
            int start = i;
            while (true) {
                if (i >= s.length()) {
                    throw new FormatException("bad JSON at character " + (open + 1) + ": the string is never closed");
                }
                char c = s.charAt(i);
                if (c == '"') {
                    String out = sb == null ? s.substring(start, i) : sb.append(s, start, i).toString();
                    i++;
                    return out;
                }
                if (c < 0x20) {
                    throw error("control character U+" + String.format("%04X", (int) c)
                            + " inside a string; write it as an escape such as \\n");
                }
                if (c == '\\') {
                    if (sb == null) {
                        sb = new StringBuilder();
                    }
                    sb.append(s, start, i);
                    i++;
                    escape(sb);
                    start = i;
                } else {
                    i++;
                }
            }
        }

        /** Appends the character(s) of the escape after a backslash. */
        private void escape(StringBuilder sb) throws FormatException {
            if (i >= s.length()) {
                throw error("the text ends inside an escape");
            }
            char c = s.charAt(i++);
            switch (c) {
                case '"', '\\', '/' -> sb.append(c);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    char u = hex4();
                    if (Character.isLowSurrogate(u)) {
                        throw error("\\u escape is a lone surrogate (a low surrogate without a high one before it)");
                    }
                    sb.append(u);
                    if (Character.isHighSurrogate(u)) {
                        if (!s.startsWith("\\u", i)) {
                            throw error("\\u escape is a lone surrogate (a high surrogate needs a low one after it)");
                        }
                        i += 2;
                        char low = hex4();
                        if (!Character.isLowSurrogate(low)) {
                            throw error("\\u escape is a lone surrogate (a high surrogate needs a low one after it)");
                        }
                        sb.append(low);
                    }
                }
                default -> {
                    i--;
                    throw error("unknown escape \\" + c);
                }
            }
        }

        private char hex4() throws FormatException {
            if (i + 4 > s.length()) {
                throw error("\\u needs four hexadecimal digits");
            }
            int v = 0;
            for (int k = 0; k < 4; k++) {
                int d = Character.digit(s.charAt(i + k), 16);
                if (d < 0) {
                    throw error("\\u needs four hexadecimal digits");
                }
                v = v * 16 + d;
            }
            i += 4;
            return (char) v;
        }

        private Number number() throws FormatException {
            int start = i;
            if (peek() == '-') {
                i++;
            }
            if (peek() == '0') {
                i++;
            } else if (isDigit(peek())) {
                while (isDigit(peek())) {
                    i++;
                }
            } else {
                throw error("expected a digit");
            }
            if (peek() == '.') {
                i++;
                if (!isDigit(peek())) {
                    throw error("expected a digit after the decimal point");
                }
                while (isDigit(peek())) {
                    i++;
                }
            }
            if (peek() == 'e' || peek() == 'E') {
                i++;
                if (peek() == '+' || peek() == '-') {
                    i++;
                }
                if (!isDigit(peek())) {
                    throw error("expected a digit in the exponent");
                }
                while (isDigit(peek())) {
                    i++;
                }
            }
            return new Number(s.substring(start, i));
        }

        private void word(String w) throws FormatException {
            if (!s.startsWith(w, i)) {
                throw error("expected a value (string, number, true, false, null or array)");
            }
            i += w.length();
        }

        private void expect(char c, String what) throws FormatException {
            if (peek() != c) {
                throw error("expected " + what);
            }
            i++;
        }

        /** The current character, or 0 at the end of the text. */
        private char peek() {
            return i < s.length() ? s.charAt(i) : 0;
        }

        private void skipSpace() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                i++;
            }
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private FormatException error(String what) {
            return new FormatException("bad JSON at character " + (i + 1) + ": " + what);
        }
    }
}
