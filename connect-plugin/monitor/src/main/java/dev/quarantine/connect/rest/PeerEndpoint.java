package dev.quarantine.connect.rest;

import java.util.Map;

/**
 * Answers another worker's request for this worker's share ({@link PeerServer}): only with a valid peer signature
 * over exactly the parameters received, only for a monitored topic, from this worker's own stores, in {@link Codec}
 * form.
 */
final class PeerEndpoint implements PeerServer.Endpoint {

    private final Monitor monitor;
    private final ClusterReader reader;
    private final PeerAuth auth;
    private final Answers answers;

    PeerEndpoint(Monitor monitor, ClusterReader reader, PeerAuth auth, Answers answers) {
        this.monitor = monitor;
        this.reader = reader;
        this.auth = auth;
        this.answers = answers;
    }

    @Override
    public PeerServer.Answer answer(Map<String, String> params, String time, String signature) {
        return answers.peer(() -> auth.verifyRequest(Peers.address(monitor.worker().self()),
                Peers.PARTIALS_FULL_PATH, params, time, signature), signature, () -> {
                    String topic = params.get("topic");
                    if (topic != null) {
                        DeadLetterResource.checkTopic(monitor, reader, topic);
                    }
                    Partial.Query query = new Partial.Query(topic, DeadLetterResource.intParam("records",
                            params.get("records"), 0, 0, monitor.config().recentRecords()));
                    return Codec.encode(reader.readLocal(DeadLetterResource.partitionList(params.get("partitions")),
                            query), Partial::write);
                });
    }
}
