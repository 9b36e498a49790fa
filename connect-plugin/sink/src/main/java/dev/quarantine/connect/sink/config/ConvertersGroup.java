package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_HEADER_CONVERTER_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_KEY_CONVERTER_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_VALUE_CONVERTER_CONFIG;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.HeaderConverter;

import dev.quarantine.connect.sink.BytesOrStringHeaderConverter;
import dev.quarantine.txn.ConfigGroup;

/**
 * The settings of the group "Target converters" of {@link TransactionalSinkConfig}: how a record's key, value and
 * headers become bytes again for the target cluster.
 */
final class ConvertersGroup {

    static final String NAME = "Target converters";

    static final String TARGET_CONVERTER_DOC = "Turns the record's %s back into bytes for the target cluster. With"
            + " the recommended setup (the connector's key.converter, value.converter and header.converter all"
            + " org.apache.kafka.connect.converters.ByteArrayConverter) the default writes the bytes exactly as they"
            + " arrived. With other connector converters, set a matching converter here; its settings take the"
            + " prefix %s.";

    private ConvertersGroup() {
    }

    static void define(ConfigDef def) {
        new ConfigGroup(def, NAME)
                .define(TARGET_KEY_CONVERTER_CONFIG, Type.CLASS, ByteArrayConverter.class,
                        Validators.implementing(Converter.class), Importance.LOW,
                        String.format(TARGET_CONVERTER_DOC, "key", TARGET_KEY_CONVERTER_CONFIG + "."), Width.LONG,
                        "Target key converter")
                .define(TARGET_VALUE_CONVERTER_CONFIG, Type.CLASS, ByteArrayConverter.class,
                        Validators.implementing(Converter.class), Importance.LOW,
                        String.format(TARGET_CONVERTER_DOC, "value", TARGET_VALUE_CONVERTER_CONFIG + "."), Width.LONG,
                        "Target value converter")
                .define(TARGET_HEADER_CONVERTER_CONFIG, Type.CLASS, BytesOrStringHeaderConverter.class,
                        Validators.implementing(HeaderConverter.class), Importance.LOW,
                        String.format(TARGET_CONVERTER_DOC, "headers", TARGET_HEADER_CONVERTER_CONFIG + ".")
                                + " The default writes headers that arrived as bytes unchanged and headers an SMT added"
                                + " as strings (UTF-8).",
                        Width.LONG, "Target header converter");
    }

    /** The converter {@code key} names, configured with the settings under {@code key.}. */
    static Converter converter(TransactionalSinkConfig config, String key, boolean isKey) {
        Converter converter = (Converter) Utils.newInstance(config.getClass(key));
        converter.configure(config.originalsWithPrefix(key + "."), isKey);
        return converter;
    }

    static HeaderConverter headerConverter(TransactionalSinkConfig config) {
        HeaderConverter converter = (HeaderConverter) Utils.newInstance(
                config.getClass(TARGET_HEADER_CONVERTER_CONFIG));
        converter.configure(config.originalsWithPrefix(TARGET_HEADER_CONVERTER_CONFIG + "."));
        return converter;
    }
}
