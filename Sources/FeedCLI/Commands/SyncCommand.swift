import ArgumentParser
import FeedCore
import Foundation

/// `feed sync FRONT BACK`: the offset between two recordings of one scene, from their sound.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Find how far apart two recordings of one scene started, from their sound.",
        discussion: """
            Prints the offset in the sense of 'feed stack --offset' (seconds the front starts \
            after the back; negative: before) and a confidence: how many times better the best \
            match is than the runner-up, the best match more than 0.1 s away from it. \
            Both audio tracks are decoded to mono at 8 kHz (the front's first 90 s, the back's \
            first 90 s plus --max-offset); each 10 s block of the front is compared with the back \
            by cross-correlation with each frequency weighted alike (GCC-PHAT, 100–3800 Hz), which \
            holds up against different microphones, gains, noise and echo, and the blocks' scores \
            are summed with ±3 ms of slack, which holds up against two clocks drifting apart; the \
            peak is refined below one sample. \
            When no offset fits clearly (below --min-confidence: the clips share no sound, or \
            only a sound that repeats, like a beat or a ticking clock), feed says so and exits \
            65: a wrong offset is worse than none.
            Output: 'offset 0.412 s (confidence 14.2)', or with --json one object: \
            {"confidence":14.2,"offset":0.412,"searched":[-10,10]} (searched: the offsets \
            compared, narrower than --max-offset when the clips are short). A refused match with \
            --json still prints the object, with "offset":null, before exiting 65.
            Exit status: 64 bad option, 65 no clear match, no audio track, silent audio or not \
            readable media, 66 a file does not exist.

            EXAMPLES:
              feed sync front.mov back.mp4
              feed stack a.mov b.mp4 --offset "$(feed sync a.mov b.mp4 --json|jq .offset)"
              feed stack front.mov back.mp4 --sync audio
            """
    )

    @Argument(help: "The front camera clip.") var front: String
    @Argument(help: "The back camera clip.") var back: String
    @OptionGroup var search: SyncSearchOptions
    @Flag(help: "Print a JSON object on stdout.") var json = false

    func run() throws {
        let options = try search.options()
        let result: SyncResult
        do throws(SyncError) {
            result = try AudioSync.offset(front: front, back: back, options: options)
        } catch {
            if json, case let .noMatch(_, _, confidence, searched) = error {
                try StandardStream.output.write(try SyncSummary(offset: nil, confidence: confidence, searched: searched).json())
            }
            throw error
        }
        if json {
            try StandardStream.output.write(try SyncSummary(offset: result.offset, confidence: result.confidence, searched: result.searched).json())
        } else {
            try StandardStream.output.write("offset \(SyncSummary.seconds(result.offset)) s (confidence \(SyncSummary.confidence(result.confidence)))\n")
        }
    }
}
