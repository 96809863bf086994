// Model shapes (TrainingSpecs): the parameter counts the papers state.
#include "TrainingSpecs.h"

#include <QTest>

#include <cmath>

using namespace cs;

class TestTrainingSpecs : public QObject {
    Q_OBJECT
private slots:
    void modelSizesFromTable3();
};

void TestTrainingSpecs::modelSizesFromTable3() {
    QVERIFY(std::fabs(findModel("llama3-405b")->parameters() / 405.8e9 - 1) < 0.005);
    QVERIFY(std::fabs(findModel("llama3-70b")->parameters() / 70.6e9 - 1) < 0.01);
    QVERIFY(std::fabs(findModel("llama3-8b")->parameters() / 8.03e9 - 1) < 0.01);
    // GPT shapes: 12 h^2 + 13 h per layer; the 175B of GPT-3 and Megatron-LM.
    QVERIFY(std::fabs(findModel("gpt-175b")->parameters() / 174.6e9 - 1) < 0.01);
    QVERIFY(std::fabs(findModel("gpt-1t")->parameters() / 1.008e12 - 1) < 0.01);
}

QTEST_APPLESS_MAIN(TestTrainingSpecs)
#include "tst_training_specs.moc"
