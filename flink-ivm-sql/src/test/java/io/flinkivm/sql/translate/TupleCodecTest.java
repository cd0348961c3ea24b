package io.flinkivm.sql.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class TupleCodecTest {
    @Test
    void eachTypeKeepsItsOwnValueAndReadsBack() {
        SqlType decimal = SqlType.decimal(15, 2);
        TupleCodec units = TupleCodec.of(decimal);
        assertThat(units).isEqualTo(new TupleCodec(TupleCodec.Form.DECIMAL_UNITS, 2));
        assertThat(units.encode(new BigDecimal("-3.5"), decimal)).isEqualTo(-350L);
        assertThat(units.decode(-350L, decimal)).isEqualTo(new BigDecimal("-3.50"));
        SqlType date = SqlType.of(SqlType.Kind.DATE);
        assertThat(TupleCodec.of(date).encode(LocalDate.of(1970, 1, 2), date)).isEqualTo(1L);
        assertThat(TupleCodec.of(date).decode(-1L, date)).isEqualTo(LocalDate.of(1969, 12, 31));
        SqlType time = SqlType.time(3);
        assertThat(TupleCodec.of(time).encode(LocalTime.of(0, 0, 1, 2_345_678), time))
                .isEqualTo(1002L);
        SqlType ts = SqlType.timestamp(6);
        LocalDateTime before1970 = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000);
        assertThat(TupleCodec.of(ts).encode(before1970, ts)).isEqualTo(-1L);
        assertThat(TupleCodec.of(ts).decode(-1L, ts)).isEqualTo(before1970);
        SqlType integer = SqlType.of(SqlType.Kind.INT);
        assertThat(TupleCodec.of(integer).decode(7L, integer)).isEqualTo(7);
        assertThat(TupleCodec.of(integer).decode(SqlType.NULL_TUPLE_VALUE, integer))
                .isNull();
    }

    @Test
    void valuesThatDoNotFitTheirTypeAreRefusedWithTheReason() {
        SqlType decimal = SqlType.decimal(5, 2);
        assertThatThrownBy(() -> TupleCodec.of(decimal).encode(new BigDecimal("1.005"), decimal))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("1.005 has more than 2 decimal places for DECIMAL(5, 2)");
        assertThatThrownBy(() -> TupleCodec.of(decimal).encode(new BigDecimal("1234"), decimal))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("1234 has more than 3 digits before the decimal point for DECIMAL(5, 2)");
        SqlType small = SqlType.of(SqlType.Kind.SMALLINT);
        assertThatThrownBy(() -> TupleCodec.of(small).encode(40_000L, small))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("40000 is out of range for SMALLINT");
        assertThatThrownBy(() -> TupleCodec.of(SqlType.DOUBLE).encode(Double.NaN, SqlType.DOUBLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("NaN is not a finite number");
        assertThatThrownBy(() -> TupleCodec.of(List.of(SqlType.BIGINT, SqlType.STRING)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("one variable of types BIGINT and STRING");
    }

    @Test
    void decimalsBeyondEighteenDigitsAtTheSharedScaleAreText() {
        assertThat(TupleCodec.of(List.of(SqlType.decimal(18, 0), SqlType.decimal(3, 2))))
                .isEqualTo(new TupleCodec(TupleCodec.Form.DECIMAL_TEXT, 0));
        assertThat(TupleCodec.of(List.of(SqlType.decimal(16, 0), SqlType.decimal(3, 2))))
                .isEqualTo(new TupleCodec(TupleCodec.Form.DECIMAL_UNITS, 2));
        SqlType wide = SqlType.decimal(38, 10);
        assertThat(TupleCodec.of(wide).encode(new BigDecimal("0.5000000000"), wide))
                .isEqualTo("0.5");
        assertThat(TupleCodec.of(wide).decode("0.5", wide)).isEqualTo(new BigDecimal("0.5000000000"));
    }
}
