#pragma once
// Run-file keys that code beside the option table names (the checks across fields in
// TrainingConfig.cpp): one constant each, which the table's own entries use too, so a misspelt
// key does not compile and tst_run_options holds every one to an option of the table.

namespace cs::runkey {

inline constexpr const char* tp = "parallel.tp";
inline constexpr const char* cp = "parallel.cp";
inline constexpr const char* pp = "parallel.pp";
inline constexpr const char* dp = "parallel.dp";
inline constexpr const char* ep = "parallel.ep";
inline constexpr const char* etp = "parallel.etp";
inline constexpr const char* cudaGraphs = "parallel.cudaGraphs";
inline constexpr const char* moeLayerHostMs = "parallel.moeLayerHostMs";
inline constexpr const char* virtualStages = "parallel.virtualStages";
inline constexpr const char* seq = "parallel.seq";
inline constexpr const char* batchTokens = "parallel.batchTokens";
inline constexpr const char* recomputeLayers = "parallel.recomputeLayers";
inline constexpr const char* allReduce = "parallel.allReduce";
inline constexpr const char* zeroStage = "parallel.zeroStage";
inline constexpr const char* pipelineLayout = "parallel.pipelineLayout";

inline constexpr const char* all[] = {tp,
                                      cp,
                                      pp,
                                      dp,
                                      ep,
                                      etp,
                                      cudaGraphs,
                                      moeLayerHostMs,
                                      virtualStages,
                                      seq,
                                      batchTokens,
                                      recomputeLayers,
                                      allReduce,
                                      zeroStage,
                                      pipelineLayout};

} // namespace cs::runkey
