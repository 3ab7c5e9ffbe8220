import FeedRecs
import Foundation

/// `feed recs evaluate`'s report: the split, then a row per ranking (model, popularity) with
/// recall@K, NDCG@K and the held-out watch time captured, and the model's ratio to popularity;
/// or one JSON object.
struct EvaluationOutput {
    let report: EvaluationReport

    static func figure(_ value: Double) -> String { String(format: "%.4f", value) }
    static func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f", a / b) : "-" }

    var text: String {
        let r = report
        var out = "viewers \(r.viewers), videos \(r.videos), events trained on \(r.trainEvents), held out \(r.heldOutEvents) (\(Int((r.holdout * 100).rounded())) %)\n"
        var table = Table(columns: [.init(header: "RANKING"), .init(header: "RECALL@\(r.k)", rightAligned: true),
                                    .init(header: "NDCG@\(r.k)", rightAligned: true), .init(header: "WATCH CAPTURED", rightAligned: true)])
        for (name, m) in [("model", r.model), ("popularity", r.popularity)] {
            table.rows.append([name, Self.figure(m.recall), Self.figure(m.ndcg), Self.figure(m.watchCaptured)])
        }
        table.rows.append(["model / popularity", Self.ratio(r.model.recall, r.popularity.recall), Self.ratio(r.model.ndcg, r.popularity.ndcg),
                           Self.ratio(r.model.watchCaptured, r.popularity.watchCaptured)])
        out += table.render(width: nil, style: Style(enabled: false))
        return out
    }

    var json: [UInt8] {
        let r = report
        func metrics(_ m: RankingMetrics) -> String {
            #"{"recall":\#(Self.figure(m.recall)),"ndcg":\#(Self.figure(m.ndcg)),"watch_captured":\#(Self.figure(m.watchCaptured))}"#
        }
        return Array(#"{"k":\#(r.k),"holdout":\#(r.holdout),"viewers":\#(r.viewers),"videos":\#(r.videos),"train_events":\#(r.trainEvents),"held_out_events":\#(r.heldOutEvents),"model":\#(metrics(r.model)),"popularity":\#(metrics(r.popularity))}"#.utf8)
    }

    func print(json asJSON: Bool) throws {
        try StandardStream.output.write(asJSON ? json + [0x0A] : Array(text.utf8))
    }
}
