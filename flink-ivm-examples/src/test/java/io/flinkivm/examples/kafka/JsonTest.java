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
        assertThat(o.get("values"))
                .isEqualTo(Arrays.asList("a", new Json.Number("12"), new Json.Number("-0.5e3"), true, null));
        assertThat(o.get("payload")).hasToString("3");
        assertThat(o.get("x")).isEqualTo(false);
        assertThat(o).containsEntry("n", null);
    }

    @Test
    void numbersKeepTheirText() throws Exception {
        assertThat(Json.parseObject("{\"v\":[0, 10, 1.50, 2E+3]}").get("v").toString())
                .isEqualTo("[0, 10, 1.50, 2E+3]");
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

    /** Jackson's messages say what was expected; the position is where it found the problem. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "``                           | character 1: expected a JSON object",
                "`  `                         | character 3: expected a JSON object",
                "[1]                          | character 1: expected a JSON object",
                "R1,a                         | character 1: expected a JSON object",
                "{\"a\":1                     | character 7: Unexpected end-of-input: expected close marker for Object",
                "{\"a\":1}x                   | character 8: unexpected text after the closing '}'",
                "{\"a\":1} {}                 | character 9: unexpected text after the closing '}'",
                "{a:1}                        | character 2: Unexpected character ('a' (code 97)): was expecting double-quote to start field name",
                "{\"a\" 1}                    | character 6: Unexpected character ('1' (code 49)): was expecting a colon",
                "{\"a\":1,\"a\":2}            | character 11: Duplicate field 'a'",
                "{\"a\":{\"b\":1}}            | character 6: field \"a\" holds an object",
                "{\"a\":[[1]]}                | character 7: field \"a\" holds nested arrays",
                "{\"a\":[1 2]}                | character 9: Unexpected character ('2' (code 50)): was expecting comma to separate Array entries",
                "{\"a\":1,}                   | character 8: Unexpected character ('}' (code 125)): was expecting double-quote to start field name",
                "{\"a\":\"x}                  | character 9: Unexpected end-of-input: was expecting closing quote for a string value",
                "{\"a\":\"\\x\"}              | character 8: Unrecognized character escape 'x'",
                "{\"a\":\"\\u12\"}            | character 11: Unexpected character ('\"' (code 34)): expected a hex-digit",
                "{\"a\":\"\\ud83d\"}          | character 6: a string of field \"a\" has a lone surrogate",
                "{\"a\":[\"\\ude00x\"]}       | character 7: a string of field \"a\" has a lone surrogate",
                "{\"a\":01}                   | character 7: Invalid numeric value: Leading zeroes not allowed",
                "{\"a\":1.}                   | character 7: Unexpected character ('}' (code 125)) in numeric value: Decimal point not followed by a digit",
                "{\"a\":1e}                   | character 7: Unexpected character ('}' (code 125)) in numeric value: Exponent indicator not followed by a digit",
                "{\"a\":-}                    | character 7: Unexpected character ('}' (code 125)) in numeric value: expected digit (0-9)",
                "{\"a\":NaN}                  | character 9: Non-standard token 'NaN'",
                "{\"a\":tru}                  | character 9: Unrecognized token 'tru': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
                "{\"a\":}                     | character 6: Unexpected character ('}' (code 125)): expected a value",
                "{\"a\":                      | character 6: Unexpected end-of-input within/between Object entries",
                "{\"a\":[1                    | character 8: Unexpected end-of-input: expected close marker for Array",
            })
    void refusesWhatIsNotFlatJson(String text, String message) {
        assertThatThrownBy(() -> Json.parseObject(text))
                .isInstanceOf(Json.FormatException.class)
                .hasMessageStartingWith("bad JSON at ")
                .hasMessageContaining(message)
                .hasMessageNotContaining("Source:");
    }

    @Test
    void refusesRawControlCharactersInStrings() {
        assertThatThrownBy(() -> Json.parseObject("{\"a\":\"x\ny\"}"))
                .isInstanceOf(Json.FormatException.class)
                .hasMessage(
                        "bad JSON at character 8: Illegal unquoted character ((CTRL-CHAR, code 10)): has to be escaped"
                                + " using backslash to be included in string value");
    }

    @Test
    void writesStringsThatReadBack() throws Exception {
        String nasty = "q\" b\\ \n\r\t\b\f \u0001 é 😀 </script>";

        String text = Json.object(g -> {
            g.writeStringField("a", nasty);
            g.writeNumberField("b", 1);
        });

        assertThat(text)
                .startsWith("{\"a\":\"")
                .contains("\\u0001")
                .doesNotContain("\n")
                .endsWith(",\"b\":1}");
        assertThat(Json.parseObject(text)).containsEntry("a", nasty).containsEntry("b", new Json.Number("1"));
    }
}
