/** A question asked in the window (never a native dialog a skill could trigger), answered by one of its choices. */
export interface Choice<Id extends string = string> {
  id: Id;
  label: string;
  /** The choice that loses work, shown as such. */
  destructive?: boolean;
}

export interface Question {
  title: string;
  message: string;
  choices: Choice[];
  answer(choice: string): void;
}

export class ConfirmStore {
  // Raw: the question is compared by identity when answered.
  question: Question | null = $state.raw(null);

  /** Asks and resolves with the chosen id; a newer question answers an older one with its last choice (cancel). */
  ask<Id extends string>(title: string, message: string, choices: Choice<Id>[]): Promise<Id> {
    this.question?.answer(this.question.choices[this.question.choices.length - 1].id);
    return new Promise<Id>((resolve) => {
      const question: Question = {
        title,
        message,
        choices,
        answer: (choice) => {
          if (this.question === question) this.question = null;
          resolve(choice as Id);
        },
      };
      this.question = question;
    });
  }
}
