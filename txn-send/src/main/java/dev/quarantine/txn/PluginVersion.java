package dev.quarantine.txn;

/**
 * The one way our plugins answer {@code version()}: the {@code Implementation-Version} of the jar that holds the
 * plugin class (ours, never Kafka's {@code AppInfoParser.getVersion()}).
 */
public final class PluginVersion {

    /** What {@link #of} answers for a class loaded from a directory (an IDE, a test) rather than a built jar. */
    public static final String UNKNOWN = "unknown (not running from the plugin jar)";

    private PluginVersion() {
    }

    /** The version in the manifest of {@code plugin}'s jar, or {@link #UNKNOWN}. */
    public static String of(Class<?> plugin) {
        String version = plugin.getPackage().getImplementationVersion();
        return version == null ? UNKNOWN : version;
    }
}
