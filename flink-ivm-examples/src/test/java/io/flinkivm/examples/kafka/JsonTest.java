package io.flinkivm.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonTest {

    @Test
    void readsAFlatObjectInOrder() throws Exception {
        Map<String, Object> o = Json.parseObject(
                " {\"relation\":\"R1\", \"values\":[\"a\", 12, -0.5e3, true, null], \"payload\":3, \"x\":false, \"n\":null}\n");

        assertThat(o.keySet()).containsExactly("relation", "values", "payload", "x", "n");
        assertThat(o.get("relation")).isEqualTo("R1");
        assertThat(o.get("values")).isEqualTo(Arrays.asList("a", new Json.Number("12"), new Json.Number("-0.5e3"),
                true, null));
        assertThat(o.get("payload")).hasToString("3");
        assertThat(o.get("x")).isEqualTo(false);
        assertThat(o).containsEntry("n", null);
    }

    @Test
    void numbersKeepTheirText() throws Exception {
        assertThat(Json.parseObject("{\"v\":[0, 10, 1.50, 2E+3]}").get("v").toString()).isEqualTo("[0, 10, 1.50, 2E+3]");
    }

    @Test
    void readsEscapes() throws Exception {
        Map<String, Object> o = Json.parseObject("{\"s\":\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00\"}");

        assertThat(o.get("s")).isEqualTo("q\" b\\ s/ \b\f\n\r\t é 😀");
    }

    @Test
    void emptyObjectAndArray() throws Exception {
        assertThat(Json.parseObject("{}")).isEmpty();
        assertThat(Json.parseObject("{\"a\":[]}").get("a")).isEqualTo(List.of());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``                           | character 1: expected a JSON object",
        "[1]                          | character 1: expected a JSON object",
        "{\"a\":1                     | character 7: expected ',' or '}'",
        "{\"a\":1}x                   | character 8: unexpected text after the closing '}'",
        "{a:1}                        | character 2: expected a field name in double quotes",
        "{\"a\" 1}                    | character 6: expected ':'",
        "{\"a\":1,\"a\":2}            | character 8: field \"a\" appears twice",
        "{\"a\":{\"b\":1}}            | character 6: field \"a\" holds an object",
        "{\"a\":[[1]]}                | character 7: field \"a\" holds nested arrays",
        "{\"a\":[1 2]}                | character 9: expected ',' or ']'",
        "{\"a\":\"x}                  | character 6: the string is never closed",
        "{\"a\":\"\\x\"}              | character 8: unknown escape \\x",
        "{\"a\":\"\\u12\"}            | \\u needs four hexadecimal digits",
        "{\"a\":\"\\ud83d\"}          | lone surrogate",
        "{\"a\":\"\\ude00\"}          | lone surrogate",
        "{\"a\":01}                   | character 7: expected ',' or '}'",
        "{\"a\":1.}                   | character 8: expected a digit after the decimal point",
        "{\"a\":1e}                   | character 8: expected a digit in the exponent",
        "{\"a\":-}                    | character 7: expected a digit",
        "{\"a\":tru}                  | character 6: expected a value",
        "{\"a\":}                     | character 6: expected a value",
        "{\"a\":                      | character 6: the text ends where a value was expected",
    })
    void refusesWhatIsNotFlatJson(String text, String message) {
        assertThatThrownBy(() -> Json.parseObject(text))
                .isInstanceOf(Json.FormatException.class)
                .hasMessageStartingWith("bad JSON at ")
                .hasMessageContaining(message);
    }

    @Test
    void refusesRawControlCharactersInStrings() {
        assertThatThrownBy(() -> Json.parseObject("{\"a\":\"x\ny\"}"))
                .isInstanceOf(Json.FormatException.class)
                .hasMessageContaining("control character U+000A inside a string");
    }

    @Test
    void writesStringsThatReadBack() throws Exception {
        String nasty = "q\" b\\ \n\r\t\b\f \u0001 é 😀 </script>";
        StringBuilder sb = new StringBuilder("{");
        Json.appendName(sb, "a");
        Json.appendString(sb, nasty);
        Json.appendName(sb, "b").append(1);
        sb.append('}');

        assertThat(sb.toString()).contains("\\u0001").doesNotContain("\n");
        assertThat(Json.parseObject(sb.toString())).containsEntry("a", nasty).containsEntry("b", new Json.Number("1"));
    }
}
