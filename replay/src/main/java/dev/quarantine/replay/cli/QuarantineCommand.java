package dev.quarantine.replay.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import dev.quarantine.txn.PluginVersion;

/** {@code bin/quarantine}: the command line of Kafka Quarantine, for users without Kafka Connect. */
@Command(name = "quarantine", mixinStandardHelpOptions = true, versionProvider = QuarantineCommand.Version.class,
        subcommands = {ReplayCommand.class, CommandLine.HelpCommand.class},
        description = "Kafka Quarantine tools for dead-letter topics.")
public final class QuarantineCommand {

    public static void main(String[] args) {
        System.exit(new CommandLine(new QuarantineCommand()).execute(args));
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"quarantine " + PluginVersion.of(QuarantineCommand.class)};
        }
    }
}
