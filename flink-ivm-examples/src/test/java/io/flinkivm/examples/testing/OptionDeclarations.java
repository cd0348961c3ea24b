package io.flinkivm.examples.testing;

import static org.assertj.core.api.Assertions.assertThat;

import picocli.CommandLine.Model.OptionSpec;

/** Whether two commands' options are one declaration: the same type, description, label and converters. */
public final class OptionDeclarations {

    private OptionDeclarations() {}

    /** {@code option} (named {@code what} in a failure) is declared as {@code expected} is. */
    public static void assertSameDeclaration(OptionSpec option, OptionSpec expected, String what) {
        assertThat(option).as(what).isNotNull();
        assertThat(option.type()).as(what).isEqualTo(expected.type());
        assertThat(option.description()).as(what).isEqualTo(expected.description());
        assertThat(option.paramLabel()).as(what).isEqualTo(expected.paramLabel());
        assertThat(option.converters()).as(what).hasSameSizeAs(expected.converters());
        for (int i = 0; i < option.converters().length; i++) {
            assertThat(option.converters()[i].getClass()).as(what).isEqualTo(expected.converters()[i].getClass());
        }
    }
}
