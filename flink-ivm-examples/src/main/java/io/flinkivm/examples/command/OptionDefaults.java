package io.flinkivm.examples.command;

import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command's own defaults for shared options ({@link FlinkOptions}, {@link QueryTextOptions}), by option
 * name: the option is declared once, and a command whose purpose needs another default than "Flink's
 * setting" names it here; picocli applies it and the command's help shows it ("Default: rocksdb").
 */
public class OptionDefaults implements IDefaultValueProvider {
    private final Map<String, String> defaults;

    protected OptionDefaults(Map<String, String> defaults) {
        this.defaults = Map.copyOf(defaults);
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        return arg instanceof OptionSpec o ? defaults.get(o.longestName()) : null;
    }
}
