package io.flinkivm.core.engine.join;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JoinRecordTest {

    @Test
    void aPayloadIsBoxedOrUnboxedAndReadsTheSameEitherWay() {
        JoinRecord<Long> r = new JoinRecord<>(5L);
        assertThat(r.isUnboxed()).isFalse();
        assertThat(r.payload()).isEqualTo(5L);
        assertThat(r.unboxedPayload()).isEqualTo(5L);
        r.setUnboxedPayload(9L);
        assertThat(r.isUnboxed()).isTrue();
        assertThat(r.payload()).isEqualTo(9L);
        assertThat(r.toString()).contains("payload 9");
        r.setPayload(4L);
        assertThat(r.isUnboxed()).isFalse();
        assertThat(r.payload()).isEqualTo(4L);
        assertThat(new JoinRecord<Long>().payload()).as("a bag tuple's record").isNull();
    }
}
