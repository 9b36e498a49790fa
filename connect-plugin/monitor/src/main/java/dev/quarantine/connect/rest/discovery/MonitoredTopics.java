package dev.quarantine.connect.rest.discovery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The dead-letter topics to monitor at one moment: topics named by connectors (with the connectors naming each),
 * topics named in the settings, and a pattern. Immutable; two are equal when they subscribe to the same topics.
 */
public final class MonitoredTopics {

    private final SortedMap<String, SortedSet<String>> connectorsByTopic;
    private final SortedSet<String> names;
    private final String regex;
    private final Pattern compiled;
    /** The most partitions among the topics read now ({@link SubscriptionWidth}); 0 when not known or none. */
    private final int width;

    public MonitoredTopics(Map<String, ? extends SortedSet<String>> connectorsByTopic, List<String> configured,
                    Optional<Pattern> regex) {
        this(connectorsByTopic, configured, regex, 0);
    }

    private MonitoredTopics(Map<String, ? extends SortedSet<String>> connectorsByTopic, Collection<String> configured,
                            Optional<Pattern> regex, int width) {
        this.connectorsByTopic = new TreeMap<>();
        connectorsByTopic.forEach((topic, connectors) -> this.connectorsByTopic.put(topic, new TreeSet<>(connectors)));
        this.names = new TreeSet<>(configured);
        this.names.addAll(connectorsByTopic.keySet());
        this.regex = regex.map(Pattern::pattern).orElse(null);
        this.compiled = regex.orElse(null);
        this.width = width;
    }

    /** These topics, read {@code width} partitions wide (the most partitions among them now). */
    public MonitoredTopics withWidth(int width) {
        return new MonitoredTopics(connectorsByTopic, names, Optional.ofNullable(compiled), width);
    }

    public static MonitoredTopics none() {
        return new MonitoredTopics(Map.of(), List.of(), Optional.empty());
    }

    /** The topics named explicitly (by connectors or settings); the pattern may match more. */
    public SortedSet<String> names() {
        return names;
    }

    /** The connector whose config names {@code topic}, when exactly one does; else {@code null}. */
    public String connectorOf(String topic) {
        SortedSet<String> connectors = connectorsByTopic.get(topic);
        return connectors == null || connectors.size() != 1 ? null : connectors.first();
    }

    boolean isEmpty() {
        return names.isEmpty() && regex == null;
    }

    /** Whether {@code topic} is named or matches the pattern. */
    public boolean matches(String topic) {
        return names.contains(topic) || (compiled != null && compiled.matcher(topic).matches());
    }

    /**
     * One pattern for the Streams source: the named topics, quoted, or the regex. Matches nothing when there is
     * nothing to monitor.
     */
    public Pattern subscription() {
        List<String> parts = new ArrayList<>();
        names.forEach(name -> parts.add(Pattern.quote(name)));
        if (regex != null) {
            parts.add("(?:" + regex + ")");
        }
        return Pattern.compile(parts.isEmpty() ? "(?!)" : String.join("|", parts));
    }

    /**
     * A short digest of the subscription and its width. It suffixes the Streams application.id: a task exists per
     * partition number of the monitored topics, and Kafka Streams fixes that count into the changelog topics it
     * creates, so a new set of topics, or the same ones now wider or narrower ({@link SubscriptionWidth}), starts a new
     * aggregation, with its own changelog topics, rebuilt from the dead-letter topics' contents. Workers that see the
     * same topics compute the same digest, hence join the same aggregation.
     */
    public String fingerprint() {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(key().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest, 0, 4);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Whether {@code other} reads the same topics as wide (the connectors naming them may differ). */
    public boolean subscribesSame(MonitoredTopics other) {
        return other != null && key().equals(other.key());
    }

    /** The subscription's pattern, and its width when known. */
    private String key() {
        return subscription().pattern() + (width == 0 ? "" : "\n" + width);
    }

    @Override
    public String toString() {
        return names + (regex == null ? "" : " and topics matching " + regex)
                + (width == 0 ? "" : ", " + width + " partitions wide");
    }
}
