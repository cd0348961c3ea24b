package io.flinkivm.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvFieldsTest {

    private final CsvFields csv = new CsvFields();
    private final List<String> out = new ArrayList<>();

    @Test
    void splitsPlainAndQuotedFields() throws Exception {
        csv.split("R1,a,\"b,c\",\"say \"\"hi\"\"\",,", out);

        assertThat(out).containsExactly("R1", "a", "b,c", "say \"hi\"", "", "");
    }

    @Test
    void oneFieldAndEmptyLine() throws Exception {
        csv.split("x", out);
        assertThat(out).containsExactly("x");
        csv.split("", out);
        assertThat(out).containsExactly("");
    }

    @Test
    void refusesBadQuoting() {
        assertThatThrownBy(() -> csv.split("R,\"a", out)).isInstanceOf(RejectedRecordException.class)
                .hasMessage("bad CSV quoting: the quote that opens field 2 at column 3 is never closed");
        assertThatThrownBy(() -> csv.split("R,\"a\"b", out)).hasMessageContaining("'b' at column 6 follows the closing"
                + " quote of field 2");
        assertThatThrownBy(() -> csv.split("R,a\"b", out)).hasMessageContaining("quote at column 4 inside unquoted field 2");
    }
}
