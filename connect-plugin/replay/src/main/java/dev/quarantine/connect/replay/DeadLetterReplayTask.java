package dev.quarantine.connect.replay;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayListener;
import dev.quarantine.txn.PluginVersion;

/**
 * Runs the replay: each {@link #poll()} is one transaction of the engine (records, dead letters and progress). It
 * hands no records to Connect. When the range is done it idles and writes nothing more.
 */
public class DeadLetterReplayTask extends SourceTask {

    private static final long IDLE_MS = 1_000;

    private final CountDownLatch stopping = new CountDownLatch(1);
    private ReplayEngine engine;
    private ReplayRun run;

    @Override
    public String version() {
        return PluginVersion.of(DeadLetterReplayTask.class);
    }

    @Override
    public void start(Map<String, String> props) {
        ReplayConfig config = new ReplayConfig(ReplayConnectorSettings.withReplayId(props));
        engine = new ReplayEngine(config, ReplayEngine.Mode.WRITE, ReplayListener.NONE);
        run = new ReplayRun(engine);
        run.start();
        ReplayMetrics.register(context, run::progress);
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        boolean more;
        synchronized (this) {
            more = stopping.getCount() > 0 && run.step();
        }
        if (!more) {
            stopping.await(IDLE_MS, TimeUnit.MILLISECONDS);
        }
        return null;
    }

    /**
     * Wakes an idle poll and closes the clients once the step in progress (one transaction) has ended: Connect 4.x
     * calls this on the task's own thread after its last poll, older workers may call it from another.
     */
    @Override
    public void stop() {
        stopping.countDown();
        synchronized (this) {
            if (engine != null) {
                engine.close();
                engine = null;
            }
        }
    }
}
