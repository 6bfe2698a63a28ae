/**
 * The training engine: everything that learns, evaluates and applies an embedding adapter, usable
 * without OpenSearch. Depends on DJL, Jackson and the JDK only.
 *
 * <h2>Parts</h2>
 * <ul>
 *   <li>{@code data}: BEIR files ({@link dev.compress.training.data.BeirFiles}), embedding files
 *       ({@link dev.compress.training.data.VectorFiles}), joined per data set and model in
 *       {@link dev.compress.training.data.EmbeddedDataset}; {@link dev.compress.training.data.DataDirectory}
 *       resolves {@code COMPRESS_DATA_DIR} / {@code -Dcompress.data.dir} / {@code ../shared/data}. Vectors are
 *       read by blocks of rows ({@link dev.compress.training.data.VectorRows}): on the heap
 *       ({@link dev.compress.training.data.VectorSet}) or, for a corpus larger than the heap, memory-mapped
 *       ({@link dev.compress.training.data.MappedVectors}).</li>
 *   <li>{@code eval}: exact and sign-bit (Hamming, optionally float-rescored) search, streamed over the corpus blocks, trec_eval nDCG@10 and
 *       recall@10 ({@link dev.compress.training.eval.RetrievalEvaluator}), tables per method
 *       ({@link dev.compress.training.eval.ModelEvaluator}).</li>
 *   <li>{@code sampling}: query splits, positives with gains, mined hard negatives, triplets
 *       ({@link dev.compress.training.sampling.TrainingData}).</li>
 *   <li>{@code model}: the model file ({@link dev.compress.training.model.ModelFile}): magic, version, JSON
 *       metadata, named float32 tensors, CRC32; every shape checked on load.</li>
 *   <li>{@code inference}: {@link dev.compress.training.inference.Encoder} over float[][] batches, as plain
 *       Java ({@link dev.compress.training.inference.JavaEncoder}), Vector API SIMD
 *       ({@link dev.compress.training.inference.VectorApiEncoder}) or DJL
 *       ({@link dev.compress.training.inference.DjlEncoder});
 *       {@link dev.compress.training.inference.CpuEncoders} picks the serving one.</li>
 *   <li>{@code trainer}: the {@link dev.compress.training.trainer.Trainer} interface with DIVE, PCA and
 *       truncation; {@link dev.compress.training.trainer.TrainingListener} receives each epoch.</li>
 *   <li>{@code cli}: {@link dev.compress.training.cli.TrainCli} (train + evaluation table + model file +
 *       JSON report).</li>
 * </ul>
 *
 * <h2>Typical use from the plugin</h2>
 * <pre>
 * ModelArtifact model = ModelFile.fromBytes(bytes);              // verifies checksum and shapes
 * try (Encoder enc = CpuEncoders.forServing(model, 64)) {       // or new DjlEncoder(model, 64, Device.cpu())
 *     float[][] out = enc.encode(batch);
 * }
 * TrainedModel t = new DiveTrainer(DiveConfig.regularised(64)).train(data, (stats, total) -> ...);
 * byte[] blob = ModelFile.toBytes(t.artifact());
 * </pre>
 *
 * <h2>Running the CLI</h2>
 * No exec plugin is configured; from the repository root:
 * <pre>
 * mvn -q -o compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=runtime
 * OMP_WAIT_POLICY=PASSIVE java -Dai.djl.offline=true -DDJL_CACHE_DIR=target/djl-cache \
 *   -Dai.djl.pytorch.num_threads=2 -cp target/classes:$(cat target/cp.txt) \
 *   dev.compress.training.cli.TrainCli train --dataset scifact --model bge-small-en-v1.5 --method dive --dims 64
 * </pre>
 */
package dev.compress.training;
