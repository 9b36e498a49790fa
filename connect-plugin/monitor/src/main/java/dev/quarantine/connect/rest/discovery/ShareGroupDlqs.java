package dev.quarantine.connect.rest.discovery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.rest.http.LogText;

/**
 * Finds the dead-letter topics of the cluster's share groups (KIP-1191, Kafka 4.4): every share group's
 * {@code errors.deadletterqueue.topic.name} group config, read with {@link Admin#describeConfigs} on
 * {@link ConfigResource.Type#GROUP} resources, each topic checked by {@link ShareGroupTopicRule} (legal, not reserved,
 * not the worker's or the monitor's own, at most {@value ShareGroupTopicRule#MAX_TOPICS}) and then taken only when it
 * exists with {@code errors.deadletterqueue.group.enable=true}. A cluster without share
 * groups, a worker whose clients predate {@link ListGroupsOptions#forShareGroups()} (Kafka 4.0), or a principal that
 * may not describe groups yields none (logged once); the topics found last are kept while the cluster does not
 * answer, and a group whose config cannot be read keeps the topic it named before, without dropping the others. One
 * round reads the configs of at most {@value #GROUPS_PER_ROUND} groups, in rotation; the others keep what they named.
 */
public final class ShareGroupDlqs implements AutoCloseable {

    /** Kafka's {@code GroupConfig.ERRORS_DEADLETTERQUEUE_TOPIC_NAME_CONFIG}: blank when the group has no DLQ. */
    static final String DLQ_TOPIC_CONFIG = "errors.deadletterqueue.topic.name";
    /** Kafka's topic config that lets share groups dead-letter into a topic (KIP-1191). */
    static final String GROUP_ENABLE_CONFIG = "errors.deadletterqueue.group.enable";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /**
     * The most share groups whose configs one discovery round reads ({@link GroupRotation}): whoever may create groups
     * decides how many there are; the others keep the topic they named when last read.
     */
    static final int GROUPS_PER_ROUND = 200;
    /** The most refused groups named in one log line. */
    private static final int MAX_LOGGED = 10;
    private static final Logger log = LoggerFactory.getLogger(ShareGroupDlqs.class);

    private final Supplier<Admin> admins;
    private final ShareGroupTopicRule rule;
    private final GroupRotation rotation;
    private Admin admin;
    private SortedMap<String, String> topicByGroup = new TreeMap<>();
    private SortedMap<String, String> last = new TreeMap<>();
    private boolean unsupported;
    private String lastProblem;
    private String lastRefusals = "";

    public ShareGroupDlqs(Supplier<Admin> admins, ShareGroupTopicRule rule) {
        this(admins, rule, GROUPS_PER_ROUND);
    }

    ShareGroupDlqs(Supplier<Admin> admins, ShareGroupTopicRule rule, int groupsPerRound) {
        this.admins = admins;
        this.rule = rule;
        this.rotation = new GroupRotation(groupsPerRound);
    }

    /** Topic -> the (first) share group naming it as its DLQ, the refused ones left out. */
    synchronized SortedMap<String, String> discover() {
        if (unsupported) {
            return last;
        }
        try {
            if (admin == null) {
                admin = admins.get();
            }
            topicByGroup = read(admin, topicByGroup);
            last = enabledOnly(admin, rule.select(topicByGroup), last);
            logRefusals();
        } catch (LinkageError e) {
            unsupported = true;
            log.info("Share groups' dead-letter topics are not discovered: the worker's Kafka clients have no share"
                    + " group listing (Kafka 4.1 or later): {}", LogText.escape(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            problem("Could not read share groups' dead-letter topics; keeping the {} found before: {}", last.size(),
                    LogText.escape(e instanceof ExecutionException ? e.getCause() : e));
        }
        return last;
    }

    /** Group -> the topic its config names, each group read apart; one that fails keeps {@code before}'s. */
    private SortedMap<String, String> read(Admin admin, Map<String, String> before)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Collection<GroupListing> groups = admin.listGroups(ListGroupsOptions.forShareGroups()).all()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        SortedSet<String> listed = new TreeSet<>();
        groups.forEach(group -> listed.add(group.groupId()));
        List<String> chosen = rotation.next(listed);
        List<ConfigResource> resources = chosen.stream()
                .map(group -> new ConfigResource(ConfigResource.Type.GROUP, group)).toList();
        SortedMap<String, String> read = new TreeMap<>();
        List<String> failed = new ArrayList<>();
        SortedSet<String> notReadThisRound = new TreeSet<>(listed);
        chosen.forEach(notReadThisRound::remove);
        if (resources.isEmpty()) {
            lastProblem = null;
            return read;
        }
        Map<ConfigResource, KafkaFuture<Config>> configs = admin.describeConfigs(resources).values();
        for (Map.Entry<ConfigResource, KafkaFuture<Config>> config : configs.entrySet()) {
            String group = config.getKey().name();
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                ConfigEntry entry = config.getValue().get(left, TimeUnit.NANOSECONDS).get(DLQ_TOPIC_CONFIG);
                if (entry != null && entry.value() != null && !entry.value().isBlank()) {
                    read.put(group, entry.value().trim());
                }
            } catch (ExecutionException | TimeoutException e) {
                failed.add(group);
            }
        }
        if (failed.isEmpty()) {
            lastProblem = null;
        } else {
            problem("Could not read the configs of {} share groups ({}); keeping the dead-letter topics they named"
                    + " before", failed.size(), LogText.escape(failed.subList(0, Math.min(MAX_LOGGED, failed.size()))));
        }
        failed.addAll(notReadThisRound);
        return keepFailed(read, failed, before);
    }

    /**
     * Of {@code selected} (topic -> group), the topics that exist with the topic config
     * {@value #GROUP_ENABLE_CONFIG}{@code =true}, which KIP-1191 requires of a share group's dead-letter topic and which
     * only who may alter topic configs can set: a group config (which whoever may alter the group sets) naming any other
     * topic, an application's {@code payments} say, does not make the monitor read it. A topic whose config could not
     * be read this time is kept when it was monitored {@code before}.
     */
    private static SortedMap<String, String> enabledOnly(Admin admin, SortedMap<String, String> selected,
                                                         Map<String, String> before) throws InterruptedException {
        if (selected.isEmpty()) {
            return selected;
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Map<ConfigResource, KafkaFuture<Config>> configs = admin.describeConfigs(selected.keySet().stream()
                .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic)).toList()).values();
        Map<String, Optional<Boolean>> enabled = new TreeMap<>();
        for (Map.Entry<ConfigResource, KafkaFuture<Config>> config : configs.entrySet()) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                ConfigEntry entry = config.getValue().get(left, TimeUnit.NANOSECONDS).get(GROUP_ENABLE_CONFIG);
                enabled.put(config.getKey().name(), Optional.of(entry != null && "true".equals(entry.value())));
            } catch (ExecutionException e) {
                enabled.put(config.getKey().name(), e.getCause() instanceof UnknownTopicOrPartitionException
                        ? Optional.of(false) : Optional.empty());
            } catch (TimeoutException e) {
                enabled.put(config.getKey().name(), Optional.empty());
            }
        }
        return enabledOnly(selected, enabled, before);
    }

    /**
     * The decision of {@link #enabledOnly(Admin, SortedMap, Map)}: a topic of {@code selected} is kept when its
     * {@code enabled} answer is true, or unknown (not read) and it was in {@code before}.
     */
    static SortedMap<String, String> enabledOnly(SortedMap<String, String> selected,
                                                 Map<String, Optional<Boolean>> enabled, Map<String, String> before) {
        SortedMap<String, String> kept = new TreeMap<>();
        selected.forEach((topic, group) -> {
            Optional<Boolean> answer = enabled.getOrDefault(topic, Optional.empty());
            if (answer.orElse(before.containsKey(topic))) {
                kept.put(topic, group);
            }
        });
        return kept;
    }

    /** {@code read} plus, for each group of {@code failed}, the topic it named {@code before} (if any). */
    static SortedMap<String, String> keepFailed(Map<String, String> read, Collection<String> failed,
                                                Map<String, String> before) {
        SortedMap<String, String> kept = new TreeMap<>(read);
        for (String group : failed) {
            String topic = before.get(group);
            if (topic != null) {
                kept.put(group, topic);
            }
        }
        return kept;
    }

    /** Logs a problem once, until another one or a good read. */
    private void problem(String message, Object count, String detail) {
        String problem = message + count + detail;
        if (!problem.equals(lastProblem)) {
            log.info(message, count, detail);
        }
        lastProblem = problem;
    }

    private void logRefusals() {
        List<String> refused = new ArrayList<>();
        topicByGroup.forEach((group, topic) -> rule.refusal(group, topic)
                .ifPresent(why -> refused.add(LogText.escape(group) + ": " + why)));
        int accepted = topicByGroup.size() - refused.size();
        String refusals = refused.size() + "/" + accepted + "/" + String.join(", ", refused);
        if (!refusals.equals(lastRefusals)) {
            if (!refused.isEmpty()) {
                log.warn("Not monitoring the dead-letter topics of {} share groups (whoever may alter a group's config"
                        + " names its dead-letter topic): {}", refused.size(),
                        String.join("; ", refused.subList(0, Math.min(MAX_LOGGED, refused.size()))));
            }
            if (accepted > ShareGroupTopicRule.MAX_TOPICS) {
                log.warn("Share groups name more than {} dead-letter topics: monitoring the first {} by name",
                        ShareGroupTopicRule.MAX_TOPICS, ShareGroupTopicRule.MAX_TOPICS);
            }
        }
        lastRefusals = refusals;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(TIMEOUT);
            admin = null;
        }
    }
}
