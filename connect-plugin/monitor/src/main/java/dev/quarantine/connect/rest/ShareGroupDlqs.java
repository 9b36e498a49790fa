package dev.quarantine.connect.rest;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
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
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the dead-letter topics of the cluster's share groups (KIP-1191, Kafka 4.4): every share group's
 * {@code errors.deadletterqueue.topic.name} group config, read with {@link Admin#describeConfigs} on
 * {@link ConfigResource.Type#GROUP} resources. A cluster without share groups, a worker whose clients predate
 * {@link ListGroupsOptions#forShareGroups()} (Kafka 4.0), or a principal that may not describe groups yields none
 * (logged once); the topics found last are kept while the cluster does not answer.
 */
final class ShareGroupDlqs implements AutoCloseable {

    /** Kafka's {@code GroupConfig.ERRORS_DEADLETTERQUEUE_TOPIC_NAME_CONFIG}: blank when the group has no DLQ. */
    static final String DLQ_TOPIC_CONFIG = "errors.deadletterqueue.topic.name";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(ShareGroupDlqs.class);

    private final Supplier<Admin> admins;
    private Admin admin;
    private SortedMap<String, String> last = new TreeMap<>();
    private boolean unsupported;
    private String lastProblem;

    ShareGroupDlqs(Supplier<Admin> admins) {
        this.admins = admins;
    }

    /** Topic -> the (first) share group naming it as its DLQ. */
    synchronized SortedMap<String, String> discover() {
        if (unsupported) {
            return last;
        }
        try {
            if (admin == null) {
                admin = admins.get();
            }
            last = read(admin);
            lastProblem = null;
        } catch (LinkageError e) {
            unsupported = true;
            log.info("Share groups' dead-letter topics are not discovered: the worker's Kafka clients have no share"
                    + " group listing (Kafka 4.1 or later): {}", LogText.escape(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            String problem = e instanceof ExecutionException ? String.valueOf(e.getCause()) : String.valueOf(e);
            if (!problem.equals(lastProblem)) {
                log.info("Could not read share groups' dead-letter topics; keeping the {} found before: {}",
                        last.size(), LogText.escape(problem));
            }
            lastProblem = problem;
        }
        return last;
    }

    private static SortedMap<String, String> read(Admin admin)
            throws InterruptedException, ExecutionException, TimeoutException {
        Collection<GroupListing> groups = admin.listGroups(ListGroupsOptions.forShareGroups()).all()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        List<ConfigResource> resources = groups.stream()
                .map(group -> new ConfigResource(ConfigResource.Type.GROUP, group.groupId())).toList();
        SortedMap<String, String> topics = new TreeMap<>();
        if (resources.isEmpty()) {
            return topics;
        }
        Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        configs.forEach((resource, config) -> {
            ConfigEntry entry = config.get(DLQ_TOPIC_CONFIG);
            if (entry != null && entry.value() != null && !entry.value().isBlank()) {
                topics.putIfAbsent(entry.value().trim(), resource.name());
            }
        });
        return topics;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(TIMEOUT);
            admin = null;
        }
    }
}
