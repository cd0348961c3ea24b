package io.flinkivm.examples.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;

/**
 * How a column's JSON value in a change event becomes a tuple value (text). Debezium's DECIMAL columns
 * (decimal.handling.mode=precise, the default) arrive as base64 of the unscaled value's big-endian two's
 * complement bytes, the scale in the column's schema ({@code org.apache.kafka.connect.data.Decimal},
 * {@code parameters.scale}), or as a struct {@code {"scale":s,"value":base64}}
 * ({@code io.debezium.data.VariableScaleDecimal}): where the event's schema names either, the value is
 * decoded to its plain decimal text. A column declared with a type ({@link ColumnType}) must hold a value of
 * it; without a schema, a string in a DECIMAL column is read as Debezium's base64. A value that cannot be
 * read is rejected with the reason; it never becomes another value.
 */
final class ColumnValues {
    static final String DECIMAL = "org.apache.kafka.connect.data.Decimal";
    static final String VARIABLE_SCALE_DECIMAL = "io.debezium.data.VariableScaleDecimal";

    private ColumnValues() {}

    /**
     * The tuple value of {@code column}'s value {@code v}.
     *
     * @param schema the column's field in the event's schema, or null (no schema envelope)
     * @param type the type --columns declares, or null
     */
    static String text(String column, JsonNode v, JsonNode schema, ColumnType type) throws RejectedRecordException {
        if (v.isNull()) {
            throw new RejectedRecordException("column " + column + " is null; tuples have no nulls");
        }
        String logical = schema != null && schema.get("name") != null
                ? schema.get("name").asText()
                : null;
        BigDecimal decoded = null;
        if (DECIMAL.equals(logical)) {
            decoded = fromBase64(column, v, scale(column, schema), "its schema says " + DECIMAL);
        } else if (VARIABLE_SCALE_DECIMAL.equals(logical)) {
            decoded = variableScale(column, v);
        }
        if (type == null || type.kind() == ColumnType.Kind.STRING) {
            return decoded != null ? decoded.toPlainString() : plain(column, v);
        }
        if (decoded == null) {
            decoded = number(column, v, type, schema != null);
        }
        String what = "column " + column + " (" + type + "): ";
        if (type.kind() == ColumnType.Kind.BIGINT) {
            try {
                return Long.toString(decoded.longValueExact());
            } catch (ArithmeticException e) {
                throw new RejectedRecordException(what + decoded.toPlainString() + " is not a whole number of 64 bits");
            }
        }
        BigDecimal scaled;
        try {
            scaled = decoded.setScale(type.scale());
        } catch (ArithmeticException e) {
            throw new RejectedRecordException(
                    what + decoded.toPlainString() + " has more than " + type.scale() + " decimal places");
        }
        if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
            throw new RejectedRecordException(what + decoded.toPlainString() + " has more than "
                    + (type.precision() - type.scale()) + " digits before the point");
        }
        return scaled.toPlainString();
    }

    /** A value as its text, as a column without a type or logical type takes it. */
    private static String plain(String column, JsonNode v) throws RejectedRecordException {
        if (v.isContainerNode()) {
            throw new RejectedRecordException("column " + column + " must be a string, number or boolean, not "
                    + (v.isArray() ? "an array" : "an object"));
        }
        return v.isBigDecimal() ? v.decimalValue().toPlainString() : v.asText();
    }

    /** The number a value of a numeric column without a logical type stands for. */
    private static BigDecimal number(String column, JsonNode v, ColumnType type, boolean hasSchema)
            throws RejectedRecordException {
        if (v.isNumber()) {
            return v.decimalValue();
        }
        if (v.isObject() && type.kind() == ColumnType.Kind.DECIMAL) {
            return variableScale(column, v);
        }
        if (v.isTextual() && type.kind() == ColumnType.Kind.DECIMAL && !hasSchema) {
            return fromBase64(
                    column,
                    v,
                    type.scale(),
                    "a string in a DECIMAL column of an event without a schema is read as Debezium writes a"
                            + " DECIMAL (decimal.handling.mode=precise); for decimal.handling.mode=string leave the"
                            + " type out of --columns");
        }
        if (v.isTextual()) {
            try {
                return new BigDecimal(v.textValue().trim());
            } catch (NumberFormatException e) {
                throw new RejectedRecordException(
                        "column " + column + " (" + type + "): \"" + v.textValue() + "\" is not a number");
            }
        }
        throw new RejectedRecordException(
                "column " + column + " (" + type + ") must be a number, not " + (v.isBoolean() ? "a boolean" : v));
    }

    /** {@code io.debezium.data.VariableScaleDecimal}: {@code {"scale":s,"value":base64}}. */
    private static BigDecimal variableScale(String column, JsonNode v) throws RejectedRecordException {
        JsonNode scale = v.get("scale");
        JsonNode value = v.get("value");
        if (!v.isObject() || scale == null || !scale.canConvertToInt() || !scale.isIntegralNumber() || value == null) {
            throw new RejectedRecordException("column " + column + " must be a variable-scale decimal"
                    + " {\"scale\":s,\"value\":\"base64\"} (" + VARIABLE_SCALE_DECIMAL + "), not " + v);
        }
        return fromBase64(column, value, scale.intValue(), VARIABLE_SCALE_DECIMAL);
    }

    /** The scale of a {@link #DECIMAL} column: its schema's {@code parameters.scale}. */
    private static int scale(String column, JsonNode schema) throws RejectedRecordException {
        JsonNode parameters = schema.get("parameters");
        JsonNode scale = parameters == null ? null : parameters.get("scale");
        try {
            if (scale != null && scale.isValueNode()) {
                return Integer.parseInt(scale.asText().trim());
            }
        } catch (NumberFormatException e) {
            // Rejected below.
        }
        throw new RejectedRecordException("column " + column + ": its schema says " + DECIMAL
                + " but has no whole number in parameters.scale (" + schema + ")");
    }

    /** Base64 of the unscaled value's big-endian two's complement bytes, with {@code scale}. */
    private static BigDecimal fromBase64(String column, JsonNode v, int scale, String why)
            throws RejectedRecordException {
        if (!v.isTextual()) {
            throw new RejectedRecordException(
                    "column " + column + " must be a base64 string of a decimal's bytes (" + why + "), not " + v);
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(v.textValue());
        } catch (IllegalArgumentException e) {
            throw new RejectedRecordException(
                    "column " + column + ": \"" + v.textValue() + "\" is not base64 (" + why + ")");
        }
        if (bytes.length == 0) {
            throw new RejectedRecordException(
                    "column " + column + ": an empty base64 string is no decimal (" + why + ")");
        }
        return new BigDecimal(new BigInteger(bytes), scale);
    }
}
