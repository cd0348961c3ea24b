package io.flinkivm.examples.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {

    /** A checked exception for a bad file line, as the {@code run} command passes its own. */
    private static final class BadLine extends Exception {
        private static final long serialVersionUID = 1L;

        BadLine(String message) {
            super(message);
        }
    }

    private final Csv csv = Csv.forFileLines();
    private final Csv records = Csv.forRecords();

    private List<String> split(String line) throws BadLine {
        List<String> out = new ArrayList<>();
        csv.split(line, out, BadLine::new);
        return out;
    }

    private List<String> splitRecord(String record) {
        List<String> out = new ArrayList<>();
        records.split(record, out, IllegalArgumentException::new);
        return out;
    }

    @Test
    void splitsPlainFields() throws Exception {
        assertThat(split("R,a,b,1")).containsExactly("R", "a", "b", "1");
        assertThat(split("R,,b,")).containsExactly("R", "", "b", "");
        assertThat(split(" R , a ")).containsExactly(" R ", " a ");
    }

    @Test
    void quotedFieldsHoldCommasAndDoubledQuotes() throws Exception {
        assertThat(split("R,\"a,b\",\"say \"\"hi\"\"\",\"\"")).containsExactly("R", "a,b", "say \"hi\"", "");
    }

    @Test
    void rejectsBadQuoting() {
        assertThatThrownBy(() -> split("R,\"a,1"))
                .isInstanceOf(BadLine.class)
                .hasMessage("bad quoting: the quote that opens field 2 at column 3 is never closed"
                        + " (a quoted field cannot span lines)");
        assertThatThrownBy(() -> split("R,\"a\"b,1"))
                .isInstanceOf(BadLine.class)
                .hasMessageContaining("'b' at column 6 follows the closing quote of field 2");
        assertThatThrownBy(() -> split("R,a\"b,1"))
                .isInstanceOf(BadLine.class)
                .hasMessageContaining("quote at column 4 inside unquoted field 2");
    }

    @Test
    void limitsFieldsTo64KiBOfUtf8() throws Exception {
        assertThat(split("R," + "x".repeat(Csv.MAX_FIELD_BYTES))).hasSize(2);
        assertThatThrownBy(() -> split("R," + "x".repeat(Csv.MAX_FIELD_BYTES + 1)))
                .isInstanceOf(BadLine.class)
                .hasMessage("field 2 is longer than 65536 bytes (64 KiB)");
        // 'é' takes two bytes in UTF-8.
        assertThatThrownBy(() -> split("\"" + "é".repeat(Csv.MAX_FIELD_BYTES / 2 + 1) + "\""))
                .isInstanceOf(BadLine.class)
                .hasMessageContaining("field 1 is longer");
    }

    @Test
    void recordsSplitAlikeButSayCsvAndHaveNoFieldLimit() {
        assertThat(splitRecord("R1,a,\"b,c\",\"say \"\"hi\"\"\",,"))
                .containsExactly("R1", "a", "b,c", "say \"hi\"", "", "");
        assertThat(splitRecord("x")).containsExactly("x");
        assertThat(splitRecord("")).containsExactly("");
        assertThat(splitRecord("R," + "x".repeat(Csv.MAX_FIELD_BYTES + 1)).get(1))
                .hasSize(Csv.MAX_FIELD_BYTES + 1);
        assertThatThrownBy(() -> splitRecord("R,\"a"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bad CSV quoting: the quote that opens field 2 at column 3 is never closed");
        assertThatThrownBy(() -> splitRecord("R,\"a\"b"))
                .hasMessage("bad CSV quoting: 'b' at column 6 follows the"
                        + " closing quote of field 2; write \"\" for a quote inside a quoted field");
        assertThatThrownBy(() -> splitRecord("R,a\"b"))
                .hasMessage("bad CSV quoting: quote at column 4 inside unquoted"
                        + " field 2; put the whole field in quotes and write \"\" for the quote");
    }

    @Test
    void quotesOnlyWhenNeeded() {
        assertThat(Csv.appendField(new StringBuilder(), "plain")).hasToString("plain");
        assertThat(Csv.appendField(new StringBuilder(), "a,b")).hasToString("\"a,b\"");
        assertThat(Csv.appendField(new StringBuilder(), "say \"hi\"")).hasToString("\"say \"\"hi\"\"\"");
        assertThat(Csv.appendField(new StringBuilder(), "two\nlines")).hasToString("\"two\nlines\"");
    }
}
