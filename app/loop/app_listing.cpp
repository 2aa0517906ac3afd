// The PTX / SASS tab's listings (ListingState): made once per good build of the active file (the
// SASS only while the tab asks for it), on threads of their own (a long PTX takes a while to
// parse; the disassembler is a program to run), and taken in at frame boundaries. Nothing here
// waits.
#include "app.hpp"

#include "ks/rtc/listing.hpp"

#include <chrono>

namespace ks::app {

namespace {

template <class T>
bool finished(const std::future<T>& job)
{
    return job.valid() && job.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

} // namespace

void App::updateListings()
{
    ListingState& l = m_state.listing;
    std::erase_if(l.retiredMade, [](const auto& job) { return finished(job); });
    std::erase_if(l.retiredSass, [](const auto& job) { return finished(job); });
    const EditorState& ed = m_state.editor;
    const EditorTab* tab = ed.activeTab >= 0 && std::size_t(ed.activeTab) < ed.tabs.size()
                               ? ed.tabs[std::size_t(ed.activeTab)].get()
                               : nullptr;
    // A failed build keeps the listings of the last good one, as the last good module keeps running.
    const std::shared_ptr<const rtc::CompileResult> result = tab ? tab->build.result : nullptr;
    if (result && result->ok && (result != l.of || tab->doc.path() != l.file)) {
        if (l.madeJob.valid())
            l.retiredMade.push_back(std::move(l.madeJob));
        if (l.sassJob.valid())
            l.retiredSass.push_back(std::move(l.sassJob));
        l.of = result;
        l.file = tab->doc.path();
        l.made.reset();
        l.sass.reset();
        l.scrolledForLine = 0;
        l.madeJob = std::async(std::launch::async, [result] {
            auto made = std::make_shared<ListingState::Made>();
            made->ptx = rtc::parsePtxListing(result->ptx);
            made->resources = rtc::parsePtxasReport(result->log);
            return std::shared_ptr<const ListingState::Made>(std::move(made));
        });
    }
    // SASS only while it is asked for: no disassembler runs for builds nobody looks at.
    if (l.of && l.showSass && !l.sass && !l.sassJob.valid()) {
        const std::shared_ptr<const rtc::CompileResult> result = l.of;
        l.sassJob = std::async(std::launch::async, [result] {
            auto sass = std::make_shared<ListingState::Sass>();
            const rtc::Disassembly d = rtc::disassemble(result->cubin);
            if (!d.ok) {
                sass->note = d.reason;
            } else {
                sass->listing = rtc::parseSassListing(d.text);
                if (!d.lineInfo)
                    sass->note = "cuobjdump prints no source lines: install the toolkit's cuda-nvdisasm package to "
                                 "map lines to instructions";
            }
            return std::shared_ptr<const ListingState::Sass>(std::move(sass));
        });
    }
    if (finished(l.madeJob))
        l.made = l.madeJob.get();
    if (finished(l.sassJob))
        l.sass = l.sassJob.get();
}

} // namespace ks::app
