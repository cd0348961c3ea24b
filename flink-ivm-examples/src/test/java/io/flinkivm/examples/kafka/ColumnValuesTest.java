package io.flinkivm.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Debezium's decimal encodings (base64 of the unscaled value's two's complement bytes, scale in the schema
 * or in a struct) and declared column types. The base64 strings are what Debezium writes for these values:
 * 12.34 at scale 2 is the unscaled 1234 = 0x04D2 = "BNI=", -5.50 is -550 = 0xFDDA = "/do=".
 */
class ColumnValuesTest {
    private static final String DECIMAL_SCHEMA = "{\"type\":\"bytes\",\"optional\":false,"
            + "\"name\":\"org.apache.kafka.connect.data.Decimal\",\"version\":1,"
            + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"},\"field\":\"price\"}";
    private static final String VARIABLE_SCHEMA = "{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\","
            + "\"optional\":false,\"field\":\"scale\"},{\"type\":\"bytes\",\"optional\":false,\"field\":\"value\"}],"
            + "\"optional\":false,\"name\":\"io.debezium.data.VariableScaleDecimal\",\"field\":\"price\"}";

    private static JsonNode json(String text) throws Exception {
        return Json.parseTree("{\"v\":" + text + "}").get("v");
    }

    private static String text(String value, String schema, String type) throws Exception {
        return ColumnValues.text(
                "price",
                json(value),
                schema == null ? null : json(schema),
                type == null ? null : ColumnType.parse(type));
    }

    @ParameterizedTest(name = "{0} {2}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                // value          | schema   | declared type    | tuple value
                "\"BNI=\"         | decimal  | -                | 12.34",
                "\"/do=\"         | decimal  | -                | -5.50",
                "\"AA==\"         | decimal  | -                | 0.00",
                "\"F0h25/8=\"     | decimal  | -                | 999999999.99",
                "\"BNI=\"         | decimal  | DECIMAL(10,3)    | 12.340",
                "\"BNI=\"         | decimal  | STRING           | 12.34",
                "{\"scale\":3,\"value\":\"B88=\"} | variable | - | 1.999",
                "{\"scale\":3,\"value\":\"B88=\"} | variable | DECIMAL(5, 3) | 1.999",
                // No schema envelope: the declared type says how to read the value.
                "\"BNI=\"         | -        | DECIMAL(10,2)    | 12.34",
                "\"/do=\"         | -        | decimal(4, 2)    | -5.50",
                "{\"scale\":3,\"value\":\"B88=\"} | - | DECIMAL(6,3) | 1.999",
                "12.3             | -        | DECIMAL(10,2)    | 12.30",
                "7                | -        | DECIMAL(10,2)    | 7.00",
                "7                | -        | BIGINT           | 7",
                "\"42\"           | -        | BIGINT           | 42",
                // A column without a type or logical type: as before, its text.
                "\"BNI=\"         | -        | -                | BNI=",
                "2.50             | -        | -                | 2.50",
                "\"x\"            | -        | STRING           | x",
            })
    void decimalsAreDecoded(String value, String schema, String type, String expected) throws Exception {
        String s = schema == null ? null : schema.equals("decimal") ? DECIMAL_SCHEMA : VARIABLE_SCHEMA;
        assertThat(text(value, s, type)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "\"12.30\"  | -       | DECIMAL(10,2) | \"12.30\" is not base64 (a string in a DECIMAL column of an event without a schema is read as Debezium writes a DECIMAL (decimal.handling.mode=precise); for decimal.handling.mode=string leave the type out of --columns)",
                "\"\"       | -       | DECIMAL(10,2) | an empty base64 string is no decimal",
                "\"B1vNFQ==\" | -     | DECIMAL(4,2)  | column price (DECIMAL(4, 2)): 1234567.89 has more than 2 digits before the point",
                "12.345     | -       | DECIMAL(10,2) | column price (DECIMAL(10, 2)): 12.345 has more than 2 decimal places",
                "\"BNI=\"   | -       | BIGINT        | column price (BIGINT): \"BNI=\" is not a number",
                "12.5       | -       | BIGINT        | column price (BIGINT): 12.5 is not a whole number of 64 bits",
                "true       | -       | DECIMAL(10,2) | column price (DECIMAL(10, 2)) must be a number, not a boolean",
                "\"@@@@\"   | decimal | -             | \"@@@@\" is not base64 (its schema says org.apache.kafka.connect.data.Decimal)",
                "12         | decimal | -             | must be a base64 string of a decimal's bytes",
                "{\"value\":\"B88=\"} | variable | -  | must be a variable-scale decimal",
                "null       | decimal | -             | column price is null; tuples have no nulls",
            })
    void undecodableValuesAreRejectedWithTheReason(String value, String schema, String type, String reason) {
        String s = schema == null ? null : schema.equals("decimal") ? DECIMAL_SCHEMA : VARIABLE_SCHEMA;
        assertThatThrownBy(() -> text(value, s, type))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void aDecimalSchemaWithoutAScaleIsRejected() {
        String schema = "{\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\",\"field\":\"price\"}";
        assertThatThrownBy(() -> text("\"BNI=\"", schema, null))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessageContaining("has no whole number in parameters.scale");
    }

    @Test
    void typesParseAndUnknownOnesAreNamed() {
        assertThat(ColumnType.parse(" numeric(12) ")).isEqualTo(new ColumnType(ColumnType.Kind.DECIMAL, 12, 0));
        assertThat(RowColumn.parseList("id, price:DECIMAL(10,2),n:bigint"))
                .containsExactly(
                        new RowColumn("id", null),
                        new RowColumn("price", new ColumnType(ColumnType.Kind.DECIMAL, 10, 2)),
                        new RowColumn("n", ColumnType.BIGINT));
        assertThatThrownBy(() -> ColumnType.parse("DATE"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown column type 'DATE'; the types are STRING, BIGINT and DECIMAL(p, s)");
        assertThatThrownBy(() -> ColumnType.parse("DECIMAL(3,5)")).hasMessageContaining("s <= p");
    }
}
