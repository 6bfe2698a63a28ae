package dev.compress.plugin.train;

import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The judgments a job can use, with counts of those it cannot: a pair whose query or document has no
 * vector, and a query left with no relevant document. The counts go into the model's {@code progress},
 * so that judgments lost to a typo or a missing vector show.
 */
record UsableJudgments(
        Qrels qrels, long pairs, long withoutQueryVector, long withoutDocumentVector, long queriesWithoutRelevant) {

    static UsableJudgments of(Qrels all, VectorRows corpus, VectorSet queries) {
        Map<String, Map<String, Integer>> kept = new LinkedHashMap<>();
        long withoutQuery = 0;
        long withoutDocument = 0;
        long withoutRelevant = 0;
        for (String q : all.queryIds()) {
            Map<String, Integer> judged = all.judgments(q);
            if (queries.rowOf(q) < 0) {
                withoutQuery += judged.size();
                continue;
            }
            Map<String, Integer> docs = new LinkedHashMap<>();
            for (Map.Entry<String, Integer> pair : judged.entrySet()) {
                if (corpus.rowOf(pair.getKey()) >= 0) {
                    docs.put(pair.getKey(), pair.getValue());
                } else {
                    withoutDocument++;
                }
            }
            if (docs.values().stream().anyMatch(r -> r > 0)) {
                kept.put(q, docs);
            } else {
                withoutRelevant++;
            }
        }
        return new UsableJudgments(
                new Qrels(kept), all.judgmentCount(), withoutQuery, withoutDocument, withoutRelevant);
    }

    /** The counts, as the model document shows them. */
    Map<String, Object> counts() {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("judged_pairs", pairs);
        counts.put("pairs_without_query_vector", withoutQueryVector);
        counts.put("pairs_without_document_vector", withoutDocumentVector);
        counts.put("queries_without_relevant_document", queriesWithoutRelevant);
        return counts;
    }
}
