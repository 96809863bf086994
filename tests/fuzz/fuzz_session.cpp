// Sessions (`.clusterscope`): the bytes read as the window reads a session file, and what
// was read written back and read again. The second text must equal the first: a session
// that the window saves reads back as it was (paths, camera, bookmarks, colouring, docks).
// The reader and writer are compiled in from app/gui and views: they need Qt Core only.
#include "FuzzSupport.h"
#include "InputError.h"
#include "SessionFile.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // A session in a folder of its own: relative paths in it resolve against that folder.
    const QString path = fuzz::scratchDir() + "/sessions/fuzz.clusterscope";
    try {
        const cs::app::Session read = cs::app::parseSession(fuzz::bytesOf(data, size), path);
        const QByteArray once = cs::app::sessionDocument(read, path);
        const QByteArray twice = cs::app::sessionDocument(cs::app::parseSession(once, path), path);
        if (once != twice) {
            std::fprintf(stderr, "a saved session reads back differently:\n%s\n---\n%s\n",
                         once.constData(), twice.constData());
            std::abort();
        }
    } catch (const cs::InputException&) {
    }
    return 0;
}
