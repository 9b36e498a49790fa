package dev.quarantine.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.management.ObjectName;

/**
 * Samples, while a size runs, two metrics of the sink's own producers (those whose {@code client-id}, the
 * transactional id, starts with the connector's {@code transactional.id.prefix} and a colon), read from the worker
 * JVM through JMX: {@code bufferpool-wait-ratio} (the share of time a send waited for buffer memory) and
 * {@code batch-size-avg} (bytes per batch sent). Both are Kafka's windowed figures (the last 30 s or so, as the
 * producer's {@code metrics.sample.window.ms} and {@code metrics.num.samples} set them), so they are read every
 * {@link #EVERY} and summarised: the mean over the samples of the mean over the producers that had a value, and the
 * highest single producer's value seen. A producer with no batch in the window has no {@code batch-size-avg} (NaN) and
 * is left out of that mean; one that did not wait reports a ratio of 0 and counts.
 */
final class ProducerSampler implements AutoCloseable {

    private static final Duration EVERY = Duration.ofSeconds(3);
    private static final String PRODUCERS = "kafka.producer:type=producer-metrics,*";
    private static final String[] ATTRIBUTES = {"bufferpool-wait-ratio", "batch-size-avg"};

    /** What the samples showed; NaN where no producer had a value. */
    record Figures(double waitRatioMean, double waitRatioMax, double batchBytesMean, int producersSeen) {

        @Override
        public String toString() {
            return String.format("sink producers %d, bufferpool-wait-ratio mean %.3f max %.3f, batch-size-avg %.0f B",
                    producersSeen, waitRatioMean, waitRatioMax, batchBytesMean);
        }
    }

    private final AttachedJvm worker;
    private final String clientIdStart;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Thread thread;
    private final List<Double> waitMeans = new ArrayList<>();
    private final List<Double> batchMeans = new ArrayList<>();
    private double waitMax = Double.NaN;
    private int producersSeen;

    private ProducerSampler(AttachedJvm worker, String transactionalIdPrefix) {
        this.worker = worker;
        this.clientIdStart = transactionalIdPrefix + ":";
        this.thread = new Thread(this::loop, "producer-sampler-" + transactionalIdPrefix);
        thread.setDaemon(true);
    }

    /** Starts sampling the producers of the connector whose {@code transactional.id.prefix} is the given one. */
    static ProducerSampler start(AttachedJvm worker, String transactionalIdPrefix) {
        ProducerSampler sampler = new ProducerSampler(worker, transactionalIdPrefix);
        sampler.thread.start();
        return sampler;
    }

    /** Takes a last sample, stops, and returns the summary. */
    Figures finish() {
        close();
        sample();
        synchronized (this) {
            return new Figures(mean(waitMeans), waitMax, mean(batchMeans), producersSeen);
        }
    }

    @Override
    public void close() {
        stop.countDown();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        try {
            while (!stop.await(EVERY.toMillis(), TimeUnit.MILLISECONDS)) {
                sample();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException workerGone) {
            // the worker died or was closed: the run reports that itself; the samples so far stand
        }
    }

    private void sample() {
        double waitSum = 0;
        int waitCount = 0;
        double batchSum = 0;
        int batchCount = 0;
        double max = Double.NaN;
        int producers = 0;
        for (ObjectName name : worker.names(PRODUCERS)) {
            String clientId = name.getKeyProperty("client-id");
            if (clientId == null || !unquoted(clientId).startsWith(clientIdStart)) {
                continue;
            }
            producers++;
            double[] values = worker.numbers(name, ATTRIBUTES);
            if (!Double.isNaN(values[0])) {
                waitSum += values[0];
                waitCount++;
                max = Double.isNaN(max) ? values[0] : Math.max(max, values[0]);
            }
            if (!Double.isNaN(values[1]) && values[1] > 0) {
                batchSum += values[1];
                batchCount++;
            }
        }
        synchronized (this) {
            if (waitCount > 0) {
                waitMeans.add(waitSum / waitCount);
                waitMax = Double.isNaN(waitMax) ? max : Math.max(waitMax, max);
            }
            if (batchCount > 0) {
                batchMeans.add(batchSum / batchCount);
            }
            producersSeen = Math.max(producersSeen, producers);
        }
    }

    /** Kafka's JmxReporter quotes a value holding a colon, as a transactional id does. */
    private static String unquoted(String value) {
        return value.startsWith("\"") ? ObjectName.unquote(value) : value;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }
}
